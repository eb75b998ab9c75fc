import ArgumentParser
import RestClient

/// `--id`, shared by every command that names a timer.
struct TimerSelection: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The timer to act on.", valueName: "id"))
    var id = TimerIDParser.defaultID

    func validate() throws {
        do {
            _ = try TimerIDParser.parse(id)
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// The id to send (validated in `validate()`).
    var timerID: String { (try? TimerIDParser.parse(id)) ?? id }
}

/// `--json`, shared by the commands that show timers.
struct OutputFormat: ParsableArguments {
    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false
}

/// A duration argument in microseconds, or the parser's sentence as a usage error.
func durationUSec(_ text: String) throws(ValidationError) -> UInt64 {
    do {
        return try DurationParser.parse(text)
    } catch {
        throw ValidationError(error.message)
    }
}
