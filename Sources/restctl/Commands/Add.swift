import ArgumentParser
import Localization
import RestClient

extension Restctl {
    struct Add: TimeAdjustment {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: localized("Add time to a timer."),
            discussion: localized("An expired timer starts a new run of that length."))

        @Argument(help: ArgumentHelp(localized("How much: 30, 30s, 1m, 1:30."), valueName: "duration"))
        var duration: String

        @OptionGroup var timer: TimerSelection
        @OptionGroup var output: OutputFormat

        static let role = DurationRole.added
    }
}
