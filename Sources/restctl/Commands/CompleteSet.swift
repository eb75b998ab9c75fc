import ArgumentParser
import Clocks
import Localization
import RestClient
import RestCore

extension Restctl {
    /// `restctl set`: the one key between sets.
    struct CompleteSet: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: localized("Mark a set done and start the rest that follows it."),
            discussion: localized(
                """
                restd records the set, ends the rest before it (how long it was actually \
                taken), and starts the timer with the rest for this exercise, labelled with \
                it: --rest if given; else the exercise's rest in config.toml; else the rest \
                last used for it (after any add or sub); else its category's; else \
                default_duration. After --failed: the exercise's failed_rest, else that rest \
                plus failed_extra (30 s). Without --exercise, the previous set's exercise on \
                this timer; without --reps or --weight, those of the exercise's previous set \
                (what is typed wins). Prints the timer like start, then what was recorded \
                (recorded Curl 12×15 kg failed) and which rule chose the rest; status --json \
                shows that rule too (rest_source). During a workout (restctl workout start), \
                without --exercise: the plan's next set, with its reps, weight and rest; \
                inside a superset's round and after the last set (which ends the workout) no \
                rest follows, and set prints the workout's status instead, as workout status \
                does. Like start, set notes once on stderr that no notification server is \
                running when none is, and that no sound server plays restd's sounds.
                """))

        @Option(
            help: ArgumentHelp(
                localized(
                    "The exercise (1 to 64 bytes; case and surrounding spaces do not matter). Default: the previous set's on this timer."
                ), valueName: "name"))
        var exercise: String?

        @Option(
            help: ArgumentHelp(
                localized("Repetitions done (0 to 10000). Default: the exercise's previous set's."), valueName: "n"))
        var reps: String?

        @Option(
            help: ArgumentHelp(
                localized(
                    "The weight in your unit ([history] weight_unit: kg unless set; 0 to 1000 kg; decimals with a dot: 62.5), or with its unit: 100kg, 225lb (kept in kg to 0.01 kg). Default: the exercise's previous set's."
                ),
                valueName: "weight"))
        var weight: String?

        @Flag(help: ArgumentHelp(localized("The set failed: the rest is longer (failed_rest, or failed_extra more).")))
        var failed = false

        @Option(
            help: ArgumentHelp(
                localized("The rest, chosen by hand (90, 2m, 1:30); wins over every rule."), valueName: "duration"))
        var rest: String?

        @Flag(
            inversion: .prefixedNo,
            help: ArgumentHelp(
                localized(
                    "End the rest once heart rate has recovered (heart rate is needed: a strap, or restctl live; the rest is the maximum); --no-until-recovered for a plain timed rest. Default: until_recovered in config.toml."
                )))
        var untilRecovered: Bool?

        @Flag(
            inversion: .prefixedNo,
            help: ArgumentHelp(
                localized(
                    "Play cues before the rest's end and an alarm at it; --no-sound for a quiet rest (the notification still shows). Default: sound in the workout plan or config.toml, else on."
                )))
        var sound: Bool?

        @OptionGroup var timer: TimerSelection
        @OptionGroup var output: OutputFormat

        func validate() throws {
            _ = try input(unit: nil)
        }

        /// The set as restd will be asked to record it, refusing what restd would refuse; a weight
        /// without a unit is in `unit` (nil: not known yet, checked once it is).
        func input(unit: WeightUnit?) throws(RestctlError) -> SetInput {
            if let exercise { _ = try ExerciseName(option: exercise) }
            let reps = try reps.map { (text) throws(RestctlError) in
                UInt32(try NumberArgument.whole(text, option: "--reps", in: 0...Int64(SetInput.maxReps)))
            }
            let weightKg = try weight.map { text throws(RestctlError) in try Self.kilograms(text, unit: unit) }
            let restUSec = try rest.map { text throws(RestctlError) in try durationUSec(text, as: .setRest) }
            return SetInput(
                exercise: exercise, reps: reps, weightKg: weightKg, failed: failed,
                restUSec: restUSec, untilRecovered: untilRecovered, sound: sound)
        }

        /// What to say of a rest that may end on recovery but started without heart rate coming
        /// in (restd marks it `sensor_lost` from its start): nil for any other.
        static func heartRateWarning(_ timer: TimerSnapshot) -> String? {
            guard timer.state == "running", timer.untilRecovered, timer.endReason == "sensor_lost" else { return nil }
            return localized(
                "no heart rate is coming in (no strap is being read, and no heart rate came from restctl live in the last 5 s): this rest runs its full %1$s unless heart rate comes",
                TimeFormat.countdown(usec: timer.durationUSec))
        }

        /// `--weight` as kilograms: a plain decimal, in `unit` or with its own (`225lb`, `100kg`),
        /// echoed as written when refused; a decimal comma is told to be a dot. With `unit` nil
        /// (restd not asked yet), a weight without one is only read: its range is checked once
        /// the unit is known.
        static func kilograms(_ text: String, unit: WeightUnit?) throws(RestctlError) -> Double {
            let weight: TypedWeight
            do {
                // A decimal comma where the reader's language writes one (German: 62,5); a dot always.
                weight = try TypedWeight(
                    parsing: text, decimalComma: localizedInContext("decimal separator", ".") == ",")
            } catch .commaForDot(let dotted) {
                throw RestctlError(
                    .usage,
                    localized("--weight %1$s: use a dot for decimals, as in %2$s", MessageText.quoted(text), dotted))
            } catch {
                throw RestctlError(
                    .usage,
                    localized(
                        "--weight %1$s is not a weight, such as 60, 62.5, 100kg or 225lb", MessageText.quoted(text)))
            }
            guard let unit = weight.unit ?? unit else { return weight.kilograms(defaultUnit: .kg) }
            let kg = weight.kilograms(defaultUnit: unit)
            guard kg <= SetInput.maxWeightKg else {
                let most = MessageText.number(SetInput.maxWeightKg)
                throw RestctlError(
                    .usage,
                    unit == .lb
                        ? localized(
                            "--weight %1$s (%2$s kg) is out of range: give 0 to %3$s kg", text, MessageText.number(kg),
                            most)
                        : localized("--weight %1$s is out of range: give 0 to %2$s kg", text, most))
            }
            return kg
        }

        func run() throws {
            let id = try timer.timerID()
            let client = try RestdConnection.client()
            let unit = try RestdConnection.calling { () throws(ClientError) in try client.weightUnit() }
            let set = try input(unit: unit)
            var notes: [String] = []
            let result = Result { () throws(RestctlError) in
                try RestdConnection.calling { () throws(ClientError) -> String in
                    // Asked before the set makes its exercise known.
                    if let exercise = set.exercise {
                        notes = ExerciseNames.notes(for: [exercise], known: (try? client.exerciseNames()) ?? [])
                    }
                    let done = try client.completeSet(
                        id: id, exercise: set.exercise, reps: set.reps, weightKg: set.weightKg,
                        failed: set.failed, restUSec: set.restUSec, untilRecovered: set.untilRecovered,
                        sound: set.sound)
                    notes += NotificationServerNote.take(from: client).map { [$0] } ?? []
                    if set.sound != false { notes += SoundServerNote.take(from: client).map { [$0] } ?? [] }
                    // What was recorded, reps and weight repeated from the previous set included,
                    // so that a wrong number shows at once; a record it beat on the next line.
                    let recorded =
                        output.json
                        ? nil
                        : done.recorded.map { set in
                            ([HistoryFormat.recorded(set, unit: unit)]
                                + [
                                    PersonalRecord.line(
                                        exercise: set.exercise, weightKg: set.weightKg, reps: set.reps,
                                        records: done.records, unit: unit, catalog: .installed)
                                ].compactMap { $0 }).joined(separator: "\n")
                        }
                    if let exercise = done.recorded?.exercise,
                        let note = PersonalRecord.unlikelyWeightNote(
                            exercise: exercise, records: done.records, unit: unit)
                    {
                        notes.append(note)
                    }
                    // No rest follows (inside a superset's round, after a workout's last set):
                    // no timer runs, and where the workout stands is the news.
                    guard done.restSource != RestSource.none.rawValue else {
                        let status = try client.workoutStatus()
                        return output.json
                            ? status.json(unit: unit)
                            : ([status.line(unit: unit)] + [recorded].compactMap { $0 }).joined(separator: "\n")
                    }
                    let timer = try client.timer(id: id)
                    if let warning = Self.heartRateWarning(timer) { notes.append(warning) }
                    var lines = [output.text(timer, now: KernelClock.realtimeUSec)]
                    guard !output.json else { return lines[0] }
                    if let recorded { lines.append(recorded) }
                    // Which rule chose the rest, so that a rest that is not the expected one explains
                    // itself; for the rest last used, the category rest it won over (if any).
                    let passedOver =
                        done.restSource.hasPrefix(RestSource.lastUsed.rawValue)
                        ? (try? client.exercise(named: timer.label))?.categoryRestPassedOver : nil
                    if let rule = RestRuleText.explanation(
                        ofSource: done.restSource, categoryRestPassedOver: passedOver)
                    {
                        // TRANSLATORS: after restctl set: which rule chose the rest ("rest 2:00 from the rest last used for Squat").
                        lines.append(
                            localized("rest %1$s from %2$s", TimeFormat.clock(seconds: done.restUSec / 1_000_000), rule)
                        )
                    }
                    return lines.joined(separator: "\n")
                }
            }
            if case .failure(let failure) = result, failure.isInvalidArgs {
                // What restd refuses here is the command line's (no exercise to take over): a usage error.
                throw RestctlError(.usage, failure.message)
            }
            print(try result.get())
            // The set is recorded either way: a likely typo is a note after it, not a refusal.
            StandardError.write(notes.map { "restctl: \($0)\n" }.joined())
        }
    }
}
