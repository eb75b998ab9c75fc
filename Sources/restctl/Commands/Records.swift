import ArgumentParser
import Localization
import RestClient
import RestCore

extension Restctl {
    struct Records: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "records",
            abstract: localized("Show each exercise's records."),
            discussion: localized(
                """
                Per exercise, from its whole history (imported sets included): the heaviest \
                set, the highest estimated one-rep max (Epley's weight × (1 + reps ÷ 30), from \
                sets of 1 to 10 reps, as the report draws it) and the set of most reps, each \
                with its local date, weights in [history] weight_unit (kg unless set). Failed \
                sets never count. restctl set prints a line when a set beats a record (most \
                reps counting at the set's own weight): record: Squat 110 kg × 3, estimated \
                1RM 121 kg (was 118). --json keeps kg (heaviest_kg…) and adds the same in \
                pounds (heaviest_lb…) when the unit is lb.
                """))

        @Option(help: ArgumentHelp(localized("Only this exercise (case does not matter)."), valueName: "name"))
        var exercise: String?

        @OptionGroup var output: OutputFormat

        func validate() throws {
            if let exercise { _ = try ExerciseName(option: exercise) }
        }

        func run() throws {
            let name = try exercise.map { text throws(RestctlError) in try ExerciseName(option: text) }
            let (sets, unit) = try RestdConnection.withClient { client throws(ClientError) in
                (try client.historySets(sinceUSec: 0, untilUSec: 0, exercise: name?.display), try client.weightUnit())
            }
            let records = RecordsFormat.records(of: sets, exerciseKey: name?.key)
            if output.json {
                print(RecordsFormat.json(records, unit: unit))
            } else if records.isEmpty {
                print(
                    name.map { localized("no records for %1$s: no set of it with reps or weight", $0.display) }
                        ?? localized("no records yet"))
            } else {
                for item in records { print(RecordsFormat.line(item, unit: unit)) }
            }
        }
    }
}
