import ArgumentParser
import Localization
import RestClient

extension Restctl {
    struct Toggle: TimerAction {
        static let configuration = CommandConfiguration(
            commandName: "toggle",
            abstract: localized("Pause or resume a timer, or start one."),
            discussion: localized(
                """
                Made for a click on a status bar: a ringing timer is silenced (and no more), \
                a running one paused, a paused one resumed, an expired one restarted (its \
                last duration again, with its label and next), and without a timer a rest of \
                restd's default_duration starts.
                """))

        @OptionGroup var timer: TimerSelection
        @OptionGroup var output: OutputFormat

        func change(_ id: String) -> TimerChange { { client throws(ClientError) in try client.toggle(id: id) } }
    }
}
