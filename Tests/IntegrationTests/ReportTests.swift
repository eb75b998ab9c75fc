import Foundation
import ProcessHarness
import RestCore
import Testing

/// `restctl report` through the real restd and restctl, read back by a real browser: headless
/// Chromium opens the page, its console must stay silent, and each chart must draw what the
/// seeded history calls for, counted in the document Chromium built.
@Suite("Training report in a browser", .tags(.slow, .calendar))
struct ReportTests {
    /// restd on a seeded history (`SeededHistory`), restd and restctl in a zone where it is
    /// about noon, so that each weekly session has a day and a week of its own.
    final class SeededDaemon {
        let daemon: RunningDaemon
        let history: SeededHistory
        let zone: String
        let output: TempDirectory

        init() throws {
            let now = RunningDaemon.realtimeNow()
            zone = LocalTime.zoneAtNoon(atUSec: now)
            daemon = try RunningDaemon(config: SeededHistory.config, environment: ["TZ": zone])
            daemon.restd.terminate()
            #expect(try daemon.restd.waitForExit() == 0)
            history = SeededHistory(now: now)
            try history.write(to: StateFile(in: daemon.state))
            try daemon.start()
            output = try TempDirectory(prefix: "restd-report")
        }

        /// `restctl report ARGS --output <page>` in restd's zone, in `language` if given (its
        /// catalog from the build, no locale generated: restctl reads it itself); the page's path.
        func report(_ args: String..., language: String? = nil) throws -> String {
            let page = output.path("report\(language.map { "-" + $0 } ?? "").html")
            var environment = ["TZ": zone, "XDG_CONFIG_HOME": daemon.config.path]
            if let language {
                try German.requireCatalog()
                environment.merge(German.environment) { $1 }
                environment["LANG"] = language
            }
            let result = restctl(daemon.bus, ["report"] + args + ["--output", page], environment: environment)
            // restctl's own line is in the language too: only its page is checked then.
            let said =
                language == nil
                ? result.stderr == "restctl: wrote the report to \(page)\n" : result.stderr.contains(page)
            #expect(result.succeeded && result.stdout.isEmpty && said, "\(result)")
            return page
        }
    }

    @Test("every chart draws the bars and points of the seeded history, and the console stays silent")
    func seededHistoryInChromium() throws {
        let seeded = try SeededDaemon()
        let page = try seeded.report("--since", "35d")
        let opened = try Chromium.open(page)
        #expect(opened.console.isEmpty, "\(opened.console)")
        let charts = ChartsInDocument(opened.dom)
        let kinds =
            ["volume", "progress", "progress", "progress", "rests", "hrr60", "time-to-target"]
            + Array(repeating: "heart-rate", count: seeded.history.heartRates.count)
        #expect(charts.charts.map(\.kind) == kinds, "\(charts.charts.map(\.kind))")
        #expect(opened.dom.contains("<html lang=\"en\">"))

        // Volume: five weeks, legs and push each week (Pull-up has no weight).
        let volume = try #require(charts.of(kind: "volume").first)
        #expect(volume.count(class: "bar") == seeded.history.volumeBars)
        #expect(opened.dom.contains("Stacked by category"))

        // Top sets: one a week; Squat's light week of 12 reps has no estimated one-rep max;
        // Pull-up has reps and no weight.
        let progress = charts.of(kind: "progress")
        try #require(progress.count == 3)
        let sessions = SeededHistory.sessions
        #expect(progress.map { $0.count(class: "top-set") } == [sessions, sessions, 0])
        #expect(progress.map { $0.count(class: "e1rm") } == [sessions - 1, sessions, 0])
        #expect(progress.map { $0.count(class: "reps") } == [sessions, sessions, sessions])
        #expect(progress[0].count(class: "limit") == 1 && progress[1].count(class: "limit") == 0)

        // Rests: planned and taken for each of the three exercises; Bench press's skips counted
        // apart, as stats counts them.
        let rests = try #require(charts.of(kind: "rests").first)
        #expect(rests.count(class: "box") == 2 * SeededHistory.exercises.count)
        let stats = restctl(seeded.daemon.bus, ["stats", "--since", "35d", "--exercise", "Bench press", "--json"])
        #expect(stats.stdout.contains(#""rests":10,"skipped":5"#), "\(stats)")
        #expect(
            opened.dom.contains("<th scope=\"row\">Bench press</th><td class=\"number\">10</td>"),
            "\(opened.dom)")

        // Recovery: Squat's followed rests, one median a week, and the window's median line.
        let hrr60 = try #require(charts.of(kind: "hrr60").first)
        #expect(hrr60.count(class: "point") == sessions && hrr60.count(class: "reference") == 1)
        #expect(try #require(charts.of(kind: "time-to-target").first).count(class: "point") == sessions)

        // Heart rate: today's three followed rests, each a line of a vertex a second it had one
        // (one second without breaks it in two), ended by the hold of its recovery.
        let curves = charts.of(kind: "heart-rate")
        #expect(curves.count == 3)
        for (curve, trace) in zip(curves, seeded.history.heartRates) {
            let lines = curve.markup.matches(of: #/<polyline class="curve [^"]*" points="([^"]*)"/#)
            #expect(lines.count == 2)
            #expect(
                lines.map { $0.output.1.split(separator: " ").count }.reduce(0, +) == trace.bpm.count { $0 > 0 })
            #expect(curve.count(class: "hold") == 1 && curve.count(class: "target") == 1)
        }

        // Workouts: the last two sessions, each with its eight sets.
        let workouts = opened.dom.matches(of: #/<article class="workout">[\s\S]*?</article>/#).map { String($0.output) }
        #expect(workouts.count == 2)
        #expect(workouts.map { $0.matches(of: #/<tr><th scope="row">/#).count } == [8, 8])
        #expect(workouts.allSatisfy { $0.contains("Full body done: 8/8 sets") })

        if let screenshot = ProcessInfo.processInfo.environment["RESTD_REPORT_SCREENSHOT"] {
            try Chromium.screenshot(page, to: screenshot)
        }

        // The same page in German (LANG=de_DE.UTF-8): the page says its language, its headings,
        // legends, axes and dates are German, and every chart draws the same marks.
        let german = try Chromium.open(try seeded.report("--since", "35d", language: German.locale))
        #expect(german.console.isEmpty, "\(german.console)")
        let germanCharts = ChartsInDocument(german.dom)
        #expect(germanCharts.charts.map(\.kind) == kinds, "\(germanCharts.charts.map(\.kind))")
        #expect(
            zip(germanCharts.charts, charts.charts).allSatisfy { german, english in
                ["bar", "point", "box", "curve"].allSatisfy { german.count(class: $0) == english.count(class: $0) }
            })
        #expect(german.dom.contains("<html lang=\"de\">"))
        #expect(german.dom.contains("<h1>Trainingsbericht</h1>") && german.dom.contains("<h2>Beste Sätze</h2>"))
        #expect(german.dom.contains("Gestapelt nach Kategorie") && !german.dom.contains("Stacked by"))
        #expect(german.dom.contains(">Woche (ab Montag)</text>") && german.dom.contains(">bester Satz, kg</li>"))
        // Dates as German writes them: day.month.year in the title, day.month. on the axes.
        #expect(german.dom.contains(#/<title>Trainingsbericht, \d\d\.\d\d\.\d{4} bis \d\d\.\d\d\.\d{4}</title>/#))
        #expect(german.dom.contains(#/<text[^>]*>\d\d\.\d\d\.</text>/#), "\(german.dom)")
        // Numbers as German writes them: the top sets' estimates with a decimal comma, none with a dot.
        #expect(german.dom.contains(#/"number">\d+,\d</#) && !german.dom.contains(#/"number">\d+\.\d</#))
        #expect(opened.dom.contains(#/"number">\d+\.\d</#) && !opened.dom.contains(#/"number">\d+,\d</#))

        // In the pseudo-language (every text of the catalog inside ⟦ ⟧), no word of the page is
        // outside the marks but the history's own (exercises, categories, workouts, restd's summary
        // of a workout), the rules' words as history --json has them (rest_source, with their
        // count in the rests' table), sets as "5×110 kg" (units are never translated) and HRR60.
        let pseudo = try Chromium.open(try seeded.report("--since", "35d", language: "en@pseudo")).dom
        let body = pseudo.replacing(#/<style>[\s\S]*?</style>/#, with: "")
        let texts = body.matches(of: #/>([^<]*[A-Za-z][^<]*)</#).map { String($0.output.1) }
        let history = Set(SeededHistory.exercises + ["legs", "push", "Full body", "HRR60"])
        let unmarked = texts.filter { text in
            !text.contains("⟦") && !history.contains(text) && !text.hasPrefix("Full body done:")
                && text.wholeMatch(of: #/(exercise|category|last_used|default|plan|given)( \d+)?|\d+×[\d.]+ kg/#) == nil
        }
        #expect(unmarked.isEmpty, "text that bypasses the catalog: \(Set(unmarked).sorted())")

        // An imported FitNotes history seven and eight weeks back (before the seeded sessions):
        // the report of those weeks charts it, its volume stacked by FitNotes' categories.
        let files = try TempDirectory(prefix: "restd-report-import")
        let fitnotes = try ImportTests.copy(
            "fitnotes.csv", into: files,
            moving: ["2026-03-10": ImportTests.day(56).dateText, "2026-03-12": ImportTests.day(49).dateText])
        let imported = restctl(seeded.daemon.bus, ["import", fitnotes], environment: ["TZ": seeded.zone])
        #expect(imported.succeeded && imported.stdout.contains("\nadded: 4 sets in 2 new workouts, "), "\(imported)")
        let importedPage = try Chromium.open(try seeded.report("--since", "63d", "--until", "42d"))
        #expect(importedPage.console.isEmpty, "\(importedPage.console)")
        let importedCharts = ChartsInDocument(importedPage.dom)
        #expect(
            importedCharts.charts.map(\.kind) == ["volume", "progress", "progress"],
            "\(importedCharts.charts.map(\.kind))")
        // Week one: Chest (the bench press) and Back (the deadlift); week two: Chest.
        let importedVolume = try #require(importedCharts.of(kind: "volume").first)
        let bars = importedVolume.markup.matches(of: #/<title>([A-Za-z]+), week of ([^:]+):/#).map {
            (category: String($0.output.1), week: String($0.output.2))
        }
        #expect(bars.map(\.category).sorted() == ["Back", "Chest", "Chest"], "\(importedVolume.markup)")
        #expect(Set(bars.map(\.week)).count == 2, "\(importedVolume.markup)")
        #expect(importedPage.dom.contains("Stacked by category"))
        // Top sets: the bench press on both days, the deadlift on one.
        #expect(
            importedCharts.of(kind: "progress").map { $0.count(class: "top-set") }.sorted() == [1, 2],
            "\(importedCharts.of(kind: "progress").map(\.markup))")
    }

    @Test("--exercise keeps one exercise's sets; the page names it")
    func oneExercise() throws {
        let seeded = try SeededDaemon()
        let charts = ChartsInDocument(
            try Chromium.open(try seeded.report("--since", "35d", "--exercise", "pull-up")).dom)
        #expect(charts.charts.map(\.kind) == ["progress", "rests"], "\(charts.charts.map(\.kind))")
    }

    @Test("an empty history gives a page that says so, and no chart")
    func emptyHistory() throws {
        let daemon = try RunningDaemon()
        let output = try TempDirectory(prefix: "restd-report")
        let page = output.path("report.html")
        let result = daemon.run(["report", "--output", page])
        #expect(result.succeeded, "\(result)")
        let opened = try Chromium.open(page)
        #expect(opened.console.isEmpty, "\(opened.console)")
        #expect(opened.dom.contains("No sets were recorded in this time"))
        #expect(ChartsInDocument(opened.dom).charts.isEmpty)
    }

    @Test("an exercise named <script>alert(1)</script> is text, in the page and in every chart")
    func exerciseNameIsText() throws {
        let daemon = try RunningDaemon()
        let name = "<script>alert(1)</script>"
        for weight in ["60", "62.5"] {
            let set = daemon.run("set", "--exercise", name, "--reps", "5", "--weight", weight)
            #expect(set.succeeded, "\(set)")
        }
        #expect(daemon.run("skip").succeeded)
        let output = try TempDirectory(prefix: "restd-report")
        let page = output.path("report.html")
        #expect(daemon.run(["report", "--output", page]).succeeded)
        let opened = try Chromium.open(page)
        #expect(opened.console.isEmpty, "\(opened.console)")
        // The document has no script element at all, and the name as text where names are shown.
        #expect(!opened.dom.contains("<script"), "\(opened.dom)")
        #expect(opened.dom.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(ChartsInDocument(opened.dom).of(kind: "progress").count == 1)
    }

    @Test("--open hands the written page to xdg-open, and says so when it cannot")
    func openWithXdgOpen() throws {
        let daemon = try RunningDaemon()
        let directory = try TempDirectory(prefix: "restd-report")
        // An xdg-open of the test's: it writes down what it was given, and exits as told.
        try directory.subdirectory("bin")
        let opener = directory.path("bin/xdg-open")
        try "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$0.args\"\nexit ${XDG_OPEN_STATUS:-0}\n".write(
            toFile: opener, atomically: true, encoding: .utf8)
        chmod(opener, 0o755)
        let restctlProgram = try BuildProducts.executable("restctl")
        /// `restctl report --open` with no --output, from `directory`, xdg-open exiting with `status`.
        func reportAndOpen(xdgOpenStatus status: Int) -> CommandResult {
            Command.run(
                ["sh", "-c", "cd \"$0\" && exec \"$@\"", directory.path, restctlProgram, "report", "--open"],
                environment: [
                    "PATH": directory.path("bin") + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? ""),
                    "DBUS_SESSION_BUS_ADDRESS": daemon.bus.address, "XDG_OPEN_STATUS": String(status),
                ])
        }
        let written = directory.path("restd-report.html")
        let opened = reportAndOpen(xdgOpenStatus: 0)
        // Where the page went, on stderr.
        #expect(
            opened.succeeded && opened.stdout.isEmpty && opened.stderr == "restctl: wrote the report to \(written)\n",
            "\(opened)")
        #expect(try String(contentsOfFile: opener + ".args", encoding: .utf8) == written + "\n")
        #expect(FileManager.default.fileExists(atPath: written))

        let failed = reportAndOpen(xdgOpenStatus: 3)
        #expect(
            failed.status == 1
                && failed.stderr
                    == "restctl: wrote the report to \(written)\n"
                    + "restctl: could not open the report: xdg-open failed (exit status 3); it is at \(written)\n",
            "\(failed)")
    }
}

extension ReportTests {
    @Test("a page that cannot be written, or --open without a file, is one sentence and nothing written")
    func badOutput() throws {
        let daemon = try RunningDaemon()
        let directory = try TempDirectory(prefix: "restd-report")
        let missing = directory.path("no/such/dir/report.html")
        let unwritable = daemon.run(["report", "--output", missing])
        #expect(
            unwritable.status == 1
                && unwritable.stderr == "restctl: could not write \(missing): no such file or directory\n",
            "\(unwritable)")
        let usage = daemon.run(["report", "--output", "-", "--open"])
        #expect(usage.status == 64 && usage.stderr.hasPrefix("restctl: --open needs a file"), "\(usage)")
        let toStandardOutput = daemon.run(["report", "--output", "-"])
        #expect(
            toStandardOutput.succeeded && toStandardOutput.stdout.hasPrefix("<!DOCTYPE html>")
                && toStandardOutput.stderr.isEmpty, "\(toStandardOutput)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
