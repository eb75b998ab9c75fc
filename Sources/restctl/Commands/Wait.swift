import ArgumentParser
import Localization
import RestClient

extension Restctl {
    struct Wait: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "wait",
            abstract: localized("Wait until a timer's rest is over."),
            discussion: localized(
                """
                What start --wait does, for a timer that is already there: in a terminal a \
                countdown (and the bell at the end when restd plays no sound for the rest), \
                otherwise silence until the end (then nothing is printed). Exit status \
                0 when the rest is over (at once for a timer already over), 1 when there is no \
                such timer or it is cancelled first, 69 when restd goes away. Ctrl-C, SIGTERM \
                and SIGHUP stop waiting but not the timer.
                """))

        @OptionGroup var timer: TimerSelection
        @OptionGroup var output: OutputFormat

        func run() throws {
            let id = try timer.timerID()
            // Reading the timer first makes a missing one restd's "no timer" sentence.
            try RestWait(timerID: id, output: output, announces: false).run { client throws(ClientError) in
                _ = try client.timer(id: id)
            }
        }
    }
}
