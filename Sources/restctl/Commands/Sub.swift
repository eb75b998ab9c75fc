import ArgumentParser
import Localization
import RestClient

extension Restctl {
    struct Sub: TimeAdjustment {
        static let configuration = CommandConfiguration(
            commandName: "sub",
            abstract: localized("Take time off a timer."),
            discussion: localized("A timer left with no time expires at once."))

        @Argument(help: ArgumentHelp(localized("How much: 10, 10s, 1m, 1:30."), valueName: "duration"))
        var duration: String

        @OptionGroup var timer: TimerSelection
        @OptionGroup var output: OutputFormat

        static let role = DurationRole.taken
    }
}
