import ArgumentParser
import Localization
import RestClient
import RestCore

extension Restctl.History {
    /// `restctl history edit ID …`.
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: localized("Change a set's exercise, reps, weight or whether it failed."),
            discussion: localized(
                """
                Only what is given changes; the set keeps its time and id. An exercise restd \
                knows keeps its name as first written. Prints the set as it is now.
                """))

        @Argument(help: ArgumentHelp(localized("The set's id, as restctl history shows it."), valueName: "id"))
        var id: String

        @Option(help: ArgumentHelp(localized("The exercise (1 to 64 bytes; case does not matter)."), valueName: "name"))
        var exercise: String?

        @Option(help: ArgumentHelp(localized("Repetitions done (0 to 10000)."), valueName: "n"))
        var reps: String?

        @Option(
            help: ArgumentHelp(
                localized(
                    "The weight in your unit ([history] weight_unit: kg unless set; 0 to 1000 kg), or with its unit: 100kg, 225lb."
                ),
                valueName: "weight"))
        var weight: String?

        @Flag(inversion: .prefixedNo, help: ArgumentHelp(localized("The set failed (--no-failed: it did not).")))
        var failed: Bool?

        func validate() throws {
            _ = try Restctl.History.setID(id)
            if let exercise { _ = try ExerciseName(option: exercise) }
            _ = try changes(unit: nil)
            if exercise == nil, reps == nil, weight == nil, failed == nil {
                throw ValidationError(
                    localized("nothing to change: give --exercise, --reps, --weight, --failed or --no-failed"))
            }
        }

        /// The reps and weight to set; a weight without a unit is in `unit` (nil: not known yet).
        private func changes(unit: WeightUnit?) throws(RestctlError) -> (reps: UInt32?, weightKg: Double?) {
            let reps = try reps.map { (text) throws(RestctlError) in
                UInt32(try NumberArgument.whole(text, option: "--reps", in: 0...Int64(SetInput.maxReps)))
            }
            let weightKg = try weight.map { text throws(RestctlError) in
                try Restctl.CompleteSet.kilograms(text, unit: unit)
            }
            return (reps, weightKg)
        }

        func run() throws {
            let setID = try Restctl.History.setID(id)
            let client = try RestdConnection.client()
            let unit = try RestdConnection.calling { () throws(ClientError) in try client.weightUnit() }
            let (reps, weightKg) = try changes(unit: unit)
            let set = try RestdConnection.calling { () throws(ClientError) in
                try client.editSet(id: setID, exercise: exercise, reps: reps, weightKg: weightKg, failed: failed)
            }
            print(HistoryFormat.edited(set, unit: unit))
        }
    }
}
