import Foundation
import ProcessHarness
import Testing

/// restctl in German, from po/de.po, against the real restd: what a person reads is German, what
/// a script reads (--json) is the same in every language.
@Suite("restctl in German", .serialized, .tags(.calendar))
struct GermanTests {
    @Test(
        "status, list, set, stats, history, undo, workout and import speak German under LANG=de_DE.UTF-8; --json is the same in English"
    )
    func restctlInGerman() throws {
        try German.requireCatalog()
        // restd in German too: its log and its refusals, which restctl shows as they come.
        let daemon = try RunningDaemon(environment: German.environment)
        // LANG alone chooses (the children's LC_ALL=C.UTF-8 is emptied, which is unset to gettext).
        let inGerman = German.environment.merging(["XDG_CONFIG_HOME": daemon.config.path]) { $1 }
        func german(_ args: String...) -> CommandResult { restctl(daemon.bus, args, environment: inGerman) }
        #expect(daemon.run("start", "90", "--label", "Kniebeuge", "--next", "Bankdrücken").status == 0)
        #expect(daemon.run("pause").status == 0)

        let status = german("status")
        #expect(status.stdout == "default  pausiert    1:30  Kniebeuge · Weiter mit: Bankdrücken\n", "\(status)")
        #expect(
            status.stderr.hasPrefix("restctl: auf dem Sitzungsbus läuft kein Benachrichtigungsdienst"), "\(status)")
        #expect(german("list").stdout == status.stdout)
        // The person's words, never the machine's: the state, as scripts read it, stays "paused".
        for command in [["status", "--json"], ["list", "--json"]] {
            let english = daemon.run(command)
            #expect(english.status == 0 && english.stdout.contains(#""state":"paused""#), "\(english)")
            #expect(restctl(daemon.bus, command, environment: inGerman).stdout == english.stdout)
        }

        let set = german("set", "--exercise", "Kniebeuge", "--reps", "5", "--weight", "62.5")
        #expect(set.status == 0, "\(set)")
        #expect(set.stdout.contains("\nerfasst: Kniebeuge 5×62,5 kg\n"), "\(set)")
        // A decimal comma is a German's way of typing 62.5; the dot still works, and English refuses the comma.
        let comma = german("set", "--exercise", "Kniebeuge", "--reps", "5", "--weight", "62,5")
        #expect(comma.status == 0 && comma.stdout.contains("\nerfasst: Kniebeuge 5×62,5 kg\n"), "\(comma)")
        #expect(daemon.run("set", "--exercise", "Kniebeuge", "--weight", "62,5").status == 64)
        let stats = german("stats")
        #expect(stats.stdout.hasPrefix("Übung      Sätze  Pausen  übersprungen"), "\(stats)")
        #expect(stats.stdout.contains("\nKniebeuge "), "\(stats)")
        #expect(german("stats", "--json").stdout == daemon.run("stats", "--json").stdout)

        // LC_ALL wins over LANG, as for every gettext program.
        let english = restctl(daemon.bus, ["status"], environment: ["LANG": German.locale, "LC_ALL": "C.UTF-8"])
        #expect(english.stdout.hasPrefix("default  running"), "\(english)")

        _ = try daemon.restd.waitForLog(containing: "auf dem Sitzungsbus läuft kein Benachrichtigungsdienst, und ")
        try daemon.config.write("max_timers = \"many\"\n")
        let refused = restctl(daemon.bus, ["reload"], environment: inGerman)
        #expect(
            refused.stderr.hasSuffix(
                "max_timers: ganze Zahl von 1 bis 10000 erwartet, gefunden: eine Zeichenkette; die Konfiguration wurde "
                    + "nicht neu geladen; die bisherige bleibt in Kraft\n"), "\(refused)")
        _ = try daemon.restd.waitForLog(containing: "die Konfiguration wurde nicht neu geladen")
        try daemon.config.write("")

        try historyWorkoutAndImport(daemon, german: { restctl(daemon.bus, $0, environment: inGerman) })
    }

    /// history (and its undo), records, a workout and an import's dry run, after the two sets
    /// of Kniebeuge above: German lines, and the same JSON in both languages.
    func historyWorkoutAndImport(_ daemon: RunningDaemon, german: ([String]) -> CommandResult) throws {
        for command in [
            ["history", "--json"], ["history", "--csv"], ["history", "--workouts", "--json"], ["records", "--json"],
            ["workout", "status", "--json"],
        ] {
            let english = daemon.run(command)
            #expect(english.status == 0 && german(command).stdout == english.stdout, "\(command): \(english)")
        }
        let history = german(["history"]).stdout.split(separator: "\n")
        #expect(history.count == 2, "\(history)")
        // The first set's rest ended with the second set; the second's runs.
        #expect(
            history.first?.contains(/\ \ Kniebeuge  5×62,5 kg  Pause \d+:\d\d von 1:30 \(-\d+:\d\d\)$/) == true,
            "\(history)")
        #expect(history.last?.hasSuffix("  Kniebeuge  5×62,5 kg  in der Pause, 1:30 geplant") == true, "\(history)")
        let undo = german(["undo"])
        #expect(undo.stdout.hasPrefix("entfernt: Kniebeuge 5×62,5 kg (Satz 2, "), "\(undo)")
        #expect(undo.stdout.hasSuffix("), samt seiner Pause\n"), "\(undo)")
        let records = german(["records"])
        #expect(records.stdout.hasPrefix("Kniebeuge: schwerster Satz 62,5 kg × 5 ("), "\(records)")
        #expect(
            german(["records", "--exercise", "Bankdrücken"]).stdout
                == "keine Rekorde für Bankdrücken: kein Satz davon mit Wiederholungen oder Gewicht\n")

        _ = try daemon.config.directory.write(
            "restd/workouts/push.toml",
            "name = \"Push day\"\n[[exercise]]\nname = \"Squat\"\nsets = 2\nreps = 5\nweight = 100\nrest = \"3m\"\n")
        #expect(german(["workout", "start", "push"]).stdout == "Push day: Squat, Satz 1 von 2 — 0/2 Sätze erledigt\n")
        let inProgress = ["workout", "status", "--json"]
        #expect(german(inProgress).stdout == daemon.run(inProgress).stdout)
        #expect(german(["workout", "status"]).stdout == "Push day: Squat, Satz 1 von 2 — 0/2 Sätze erledigt\n")
        // The workout's marker before its last set, written in English into the timer's next, in German.
        let firstSet = german(["set"])
        #expect(firstSet.status == 0 && firstSet.stdout.contains("Weiter mit: Squat 2/2 (letzter Satz)"), "\(firstSet)")
        let end = german(["workout", "end"])
        #expect(end.stdout.hasPrefix("Push day erledigt: 1/2 Sätze in "), "\(end)")
        #expect(end.stdout.contains(", Volumen 500 kg, Pause gesamt "), "\(end)")
        #expect(german(["history", "--workouts"]).stdout.contains("  Push day erledigt: 1/2 Sätze in "))
        #expect(
            german(["workout", "start", "pussh"]).stderr == "restctl: kein Trainingsplan \"pussh\" in "
                + daemon.config.directory.path("restd/workouts") + "; meinten Sie 'push'?\n")

        let files = try TempDirectory(prefix: "restd-german-import")
        let (first, last) = (ImportTests.day(10).dateText, ImportTests.day(8).dateText)
        let strong = try ImportTests.copy("strong.csv", into: files, moving: ["2026-03-02": first, "2026-03-05": last])
        let before = daemon.run("history", "--json", "--since", "30d")
        let dry = german(["import", strong, "--unit", "kg", "--dry-run"])
        #expect(
            ImportTests.lines(dry) == [
                "\(strong): ein Export aus Strong (an der Kopfzeile erkannt)",
                "gelesen: 5 Sätze in 2 Trainings, \(first) bis \(last); "
                    + "übersprungen: 2 Cardio-Zeilen (Strecke oder Zeit, keine Wiederholungen), 1 Pausentimer-Zeile",
                "würde hinzufügen: 5 Sätze in 2 neuen Trainings, \(first) bis \(last)",
                "für restd neue Übungen: Squat (Barbell), Bench Press (Barbell), Pull Up",
                "Probelauf: nichts wurde geschrieben",
            ], "\(dry)")
        #expect(daemon.run("history", "--json", "--since", "30d").stdout == before.stdout)
        let other = german(["import", ImportTests.fixtures + "other.csv"])
        #expect(other.status == 64 && other.stderr.contains(" ist keiner der Exporte, die restctl kennt: "), "\(other)")

        // restctl's own mistakes and refusals; ArgumentParser's USAGE: and its words stay English.
        let unknown = german(["stat"])
        #expect(unknown.status == 64)
        #expect(
            unknown.stderr
                == "restctl: unbekannter Befehl 'stat'; meinten Sie 'status' (ein Timer) oder 'stats' (Pausen je Übung)?\n"
                + "Aufruf: restctl <subcommand>\n  Mehr dazu: 'restctl --help'.\n", "\(unknown)")
        #expect(
            german(["start", "25h"]).stderr
                == "restctl: duration \"25h\" ist zu lang: geben Sie eine Pause von 1 s bis 24 Std. an\n")
        #expect(
            german(["history", "--json", "--csv"]).stderr.hasPrefix("restctl: --json und --csv gehen nicht zusammen"))
        // restd's refusal, in restd's German, as restctl shows it.
        #expect(german(["pause", "--id", "nosuch"]).stderr == "restctl: kein Timer \"nosuch\"\n")
        // The same sentence where restctl finds the timer missing itself (status reads it directly).
        #expect(german(["status", "--id", "nosuch"]).stderr == "restctl: kein Timer \"nosuch\"\n")
        #expect(
            german(["start", "9x"]).stderr.hasPrefix(
                "restctl: duration \"9x\" ist unverständlich; geben Sie Sekunden (90), "))
        #expect(
            german(["set", "--exercise", " "]).stderr
                == "restctl: --exercise: der Übungsname ist leer; geben Sie 1 bis 64 Bytes Text an, etwa \"Kniebeuge\"\n"
        )
        #expect(
            german(["start", "5", "--label", "a\u{01}b"]).stderr
                == "restctl: --label enthält ein Steuerzeichen (U+0001) an Position 2\n")
        #expect(
            german(["pause", "--id", "a b"]).stderr
                == "restctl: Timer-ID \"a b\" ist ungültig: verwenden Sie 1 bis 64 Zeichen aus A-Z, a-z, 0-9, _ und -\n"
        )
        // --help: restctl's abstracts, discussions and option help in German, ArgumentParser's
        // headings as they are.
        let help = german(["start", "--help"]).stdout
        #expect(help.hasPrefix("OVERVIEW: Einen Timer starten (oder ersetzen).\n"), "\(help)")
        #expect(help.contains("\nMit --wait bleibt restctl, bis die Pause vorbei ist: in einem Terminal zeigt es\n"))
        #expect(
            help.contains("\nUSAGE: restctl start ")
                && help.contains("  --label <text>          Wofür die Pause ist.\n"))
        // restd's own help, written by hand, headings included.
        let restdHelp = Command.run(
            [try BuildProducts.executable("restd"), "--help"], environment: German.environment)
        #expect(
            restdHelp.status == 0 && restdHelp.stdout.hasPrefix("AUFRUF: restd [--address ADRESSE]"), "\(restdHelp)")
        #expect(restdHelp.stdout.hasSuffix("\nund restctl(1).\n"), "\(restdHelp)")
    }
}
