import ArgumentParser
import Clocks
import Localization
import RestClient
import RestCore

/// `--since`, `--until` and `--exercise`, shared by history and stats.
struct HistorySelection: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            localized(
                "From this time: an age (7d, 2w, 12h), today, yesterday (either with a time: \"today 09:00\"), or a local date (2026-11-23, \"2026-11-23 18:00\")."
            ), valueName: "when"))
    var since: String?

    @Option(
        help: ArgumentHelp(
            localized(
                "Up to this time (same forms; a day without a time counts in full: --until today is until tonight's midnight); default: now."
            ), valueName: "when"))
    var until: String?

    @Option(help: ArgumentHelp(localized("Only this exercise (case does not matter)."), valueName: "name"))
    var exercise: String?

    func validate() throws {
        _ = try window(defaultSince: "7d", now: KernelClock.realtimeUSec)
        _ = try exerciseName()
    }

    /// [since, until) in µs; until 0 means no end.
    func window(defaultSince: String, now: UInt64) throws(RestctlError) -> (since: UInt64, until: UInt64) {
        do throws(InputError) {
            let start = try HistoryWindow.instant(since ?? defaultSince, as: .since, now: now)
            let end =
                try until.map { text throws(InputError) in try HistoryWindow.instant(text, as: .until, now: now) } ?? 0
            if end != 0, end <= start {
                throw InputError(localized("--until is not after --since; give a later --until or an earlier --since"))
            }
            return (start, end)
        } catch {
            throw RestctlError(.usage, error.message)
        }
    }

    func exerciseName() throws(RestctlError) -> ExerciseName? {
        try exercise.map { text throws(RestctlError) in try ExerciseName(option: text) }
    }
}

extension Restctl {
    /// `restctl history`: the sets done (`show`, the default), and their fixes.
    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history",
            abstract: localized("Show the sets done; delete, edit or rename them."),
            discussion: localized(
                """
                Without a command, history show: restctl history --since 2w is restctl \
                history show --since 2w. Each change is one transaction; records, stats and \
                the report follow it. restctl undo takes back the last set.
                """),
            subcommands: [Show.self, Delete.self, Edit.self, Rename.self], defaultSubcommand: Show.self)
    }
}

extension Restctl.History {
    /// A set's id as `restctl history` shows it.
    static func setID(_ text: String) throws(RestctlError) -> Int64 {
        guard let id = Int64(text), id > 0 else {
            throw RestctlError(
                .usage,
                localized(
                    "set id %1$s is not a set's id: give the number 'restctl history' shows", MessageText.quoted(text)))
        }
        return id
    }

    /// `restctl history show`, and `restctl history` alone.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: localized("Show the sets done, with the rest after each."),
            discussion: localized(
                """
                One line per set, oldest first, in local time, after the set's id (which \
                history delete and edit take): \
                12  2026-11-23 18:02  Squat  5×100 kg  rest 2:41 of 2:30 (+0:11) — the rest taken, \
                of the rest planned (after add and sub), and the difference. --csv writes a \
                header row and one row per set with ISO 8601 UTC times and durations in \
                seconds, for spreadsheets. Default: the last 7 days. With --workouts, one line \
                per workout that ended in the window (its summary) instead.
                """))

        @OptionGroup var selection: HistorySelection

        @Flag(help: ArgumentHelp(localized("Print JSON instead of text.")))
        var json = false

        @Flag(help: ArgumentHelp(localized("Print CSV (a header row, then one row per set).")))
        var csv = false

        @Flag(help: ArgumentHelp(localized("Show the workouts that ended (their summaries) instead of the sets.")))
        var workouts = false

        func validate() throws {
            if json && csv { throw ValidationError(localized("--json and --csv cannot be used together; choose one")) }
            if workouts && (csv || selection.exercise != nil) {
                throw ValidationError(localized("--workouts cannot be used with --csv or --exercise"))
            }
        }

        func run() throws {
            let (since, until) = try selection.window(defaultSince: "7d", now: KernelClock.realtimeUSec)
            if workouts {
                let (summaries, unit) = try RestdConnection.withClient { client throws(ClientError) in
                    (try client.workoutSummaries(sinceUSec: since, untilUSec: until), try client.weightUnit())
                }
                if json {
                    print(JSONText.array(summaries.map { $0.jsonObject(unit: unit) }))
                } else {
                    for summary in summaries {
                        print(TimeFormat.localMinute(usec: summary.endedAtUSec) + "  " + summary.line(unit: unit))
                    }
                }
                return
            }
            let name = try selection.exerciseName()
            let (sets, traces, unit) = try RestdConnection.withClient { client throws(ClientError) in
                (
                    try client.historySets(sinceUSec: since, untilUSec: until, exercise: name?.display),
                    json ? try client.heartRateTraces(sinceUSec: since, untilUSec: until) : [],
                    try client.weightUnit()
                )
            }
            if json {
                print(
                    HistoryFormat.json(
                        sets, heartRates: Dictionary(traces.map { ($0.setID, $0) }) { $1 }, unit: unit))
            } else if csv {
                printLines([HistoryFormat.csvHeader(unit: unit)] + sets.map { HistoryFormat.csvRow($0, unit: unit) })
            } else {
                printLines(HistoryFormat.lines(sets, unit: unit))
            }
        }
    }
}

/// Lines printed with one write of the whole text, not a print per line (a week of history is
/// thousands of lines); nothing at all for none.
private func printLines(_ lines: [String]) {
    guard !lines.isEmpty else { return }
    print(lines.joined(separator: "\n"))
}
