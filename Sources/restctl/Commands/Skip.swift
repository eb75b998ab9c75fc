import ArgumentParser
import Localization
import RestClient

extension Restctl {
    struct Skip: TimerAction {
        static let configuration = CommandConfiguration(
            commandName: "skip",
            abstract: localized("End the rest now, on purpose."),
            discussion: localized(
                """
                The timer is over from now, without "Rest over". A rest started by set is \
                recorded as skipped. Prints the timer's line.
                """))

        @OptionGroup var timer: TimerSelection
        @OptionGroup var output: OutputFormat

        func change(_ id: String) -> TimerChange { { client throws(ClientError) in try client.skip(id: id) } }
    }
}
