import ArgumentParser
import Localization
import RestClient
import RestCore

/// `--id`, shared by every command that names a timer.
struct TimerSelection: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(localized("The timer to act on."), valueName: "id"))
    var id = TimerIDParser.defaultID

    func validate() throws {
        _ = try timerID()
    }

    /// The id to send, or the sentence saying why it cannot be.
    func timerID() throws(RestctlError) -> String {
        do {
            return try TimerIDParser.parse(id)
        } catch {
            throw RestctlError(.usage, error.message)
        }
    }
}

/// `--json`, shared by the commands that show timers.
struct OutputFormat: ParsableArguments {
    @Flag(name: .long, help: ArgumentHelp(localized("Print JSON instead of text.")))
    var json = false
}

/// What a duration on the command line is for: that decides its range and how its sentences
/// name it. The ranges are restd's (`TimerLimits.standard`, not configurable), checked here
/// too so that a duration restd would refuse is a usage error before anything is sent.
enum DurationRole {
    /// `start`'s DURATION: a rest of 1 s to 24 h.
    case rest
    /// `add`'s DURATION: time added, 1 s to 24 h (restd's limit for Adjust).
    case added
    /// `sub`'s DURATION: time taken off, 1 s to 24 h.
    case taken
    /// `start --warn`: how long before the end the pre-alert comes, at least 1 s.
    case warning
    /// `set --rest`: the rest after the set, chosen by hand; a rest of 1 s to 24 h.
    case setRest

    var name: String {
        switch self {
        case .warning: "--warn"
        case .setRest: "--rest"
        case .rest, .added, .taken: "duration"
        }
    }
}

/// A duration argument in microseconds, or one sentence (exit 64) naming the flag or argument.
func durationUSec(_ text: String, as role: DurationRole) throws(RestctlError) -> UInt64 {
    let limits = TimerLimits.standard
    let usec: UInt64
    do {
        usec = try DurationParser.parse(text, name: role.name)
    } catch {
        let subject = role.name + " " + MessageText.quoted(text)
        guard error.reason == .negative else {
            throw RestctlError(.usage, error.message)
        }
        let amount = String(text.dropFirst())
        switch role {
        case .rest, .setRest:
            throw RestctlError(.usage, localized("%1$s is negative; give a rest of %2$s", subject, range(limits)))
        case .added:
            throw RestctlError(
                .usage, localized("%1$s is negative; to take time off, use 'restctl sub %2$s'", subject, amount))
        case .taken:
            throw RestctlError(
                .usage, localized("%1$s is negative; to add time, use 'restctl add %2$s'", subject, amount))
        case .warning:
            throw RestctlError(
                .usage, localized("%1$s is negative; give how long before the end to warn, as in 10s", subject))
        }
    }
    let subject = "\(role.name) \(MessageText.quoted(text))"
    switch role {
    case .rest, .setRest:
        guard usec >= limits.minDurationUSec else {
            throw RestctlError(.usage, localized("%1$s is too short: give a rest of %2$s", subject, range(limits)))
        }
        guard usec <= limits.maxDurationUSec else {
            throw RestctlError(.usage, localized("%1$s is too long: give a rest of %2$s", subject, range(limits)))
        }
    case .added, .taken:
        guard usec > 0 else { throw RestctlError(.usage, localized("%1$s is zero; give at least 1 second", subject)) }
        guard usec <= limits.maxDurationUSec else {
            throw RestctlError(
                .usage,
                localized(
                    "%1$s is too long: add and sub take at most %2$s", subject,
                    DurationText.describe(limits.maxDurationUSec)))
        }
    case .warning:
        guard usec > 0 else {
            throw RestctlError(
                .usage,
                localized(
                    "%1$s is zero; leave --warn out for no pre-alert, or give at least %2$s", subject,
                    DurationText.describe(limits.minDurationUSec)))
        }
    }
    return usec
}

/// Checks `--warn` against the rest it is for: the pre-alert must come after the start.
func checkWarning(_ text: String, warnUSec: UInt64, restUSec: UInt64) throws(RestctlError) {
    guard warnUSec < restUSec else {
        throw RestctlError(
            .usage,
            localized(
                "--warn %1$s is not shorter than the rest (%2$s): give a shorter --warn or a longer rest",
                MessageText.quoted(text), DurationText.describe(restUSec)))
    }
}

private func range(_ limits: TimerLimits) -> String {
    TimeFormat.range(limits.minDurationUSec, limits.maxDurationUSec)
}

extension ExerciseName {
    /// `--exercise` as restd would take it (1 to 64 bytes, case and surrounding spaces aside), or
    /// restctl's usage error.
    init(option text: String) throws(RestctlError) {
        do {
            self = try ExerciseName(parsing: text)
        } catch {
            throw RestctlError(.usage, "--exercise: " + error.message)
        }
    }
}

/// A number given to an option, read by restctl rather than ArgumentParser, so that a word that
/// is no number is told in restctl's sentence: `--reps "5.5" is not a whole number`.
enum NumberArgument {
    /// A whole number (`-3`, `142`); its range is the caller's to check.
    static func whole(_ text: String, option: String) throws(RestctlError) -> Int64 {
        guard let number = Int64(text) else {
            throw RestctlError(.usage, localized("%1$s %2$s is not a whole number", option, MessageText.quoted(text)))
        }
        return number
    }

    /// A whole number in `range`, refused with the range: `--reps 20000 is out of range: give 0 to 10000`.
    static func whole(_ text: String, option: String, in range: ClosedRange<Int64>) throws(RestctlError) -> Int64 {
        let number = try whole(text, option: option)
        guard range.contains(number) else {
            throw RestctlError(
                .usage, localized("%1$s %2$s is out of range: give %3$s", option, number, rangeText(range)))
        }
        return number
    }

    /// A decimal number in `range` (`2`, `0.5`), refused with the range and `unit`.
    static func decimal(
        _ text: String, option: String, in range: ClosedRange<Double>, unit: String
    ) throws(RestctlError) -> Double {
        guard let number = Double(text), number.isFinite else {
            throw RestctlError(
                .usage, localized("%1$s %2$s is not a number, such as 2 or 0.5", option, MessageText.quoted(text)))
        }
        guard range.contains(number) else {
            throw RestctlError(
                .usage,
                localized(
                    "%1$s %2$s is out of range: give %3$s", option, MessageText.number(number),
                    rangeText(range, unit: unit)))
        }
        return number
    }

    /// "0 to 10000", "0 to 1000 kg" in the reader's words.
    static func rangeText<Number: Comparable & CustomStringConvertible>(
        _ range: ClosedRange<Number>, unit: String? = nil
    ) -> String {
        let (lower, upper) = (numberText(range.lowerBound), numberText(range.upperBound))
        let text = localized("%1$s to %2$s", lower, upper)
        return unit.map { text + " " + $0 } ?? text
    }

    private static func numberText<Number: CustomStringConvertible>(_ value: Number) -> String {
        if let double = value as? Double { return MessageText.number(double) }
        return value.description
    }
}
