import ArgumentParser
import Localization
import RestClient

extension Restctl {
    struct Pause: TimerAction {
        static let configuration = CommandConfiguration(
            commandName: "pause", abstract: localized("Pause a running timer."))

        @OptionGroup var timer: TimerSelection
        @OptionGroup var output: OutputFormat

        func change(_ id: String) -> TimerChange { { client throws(ClientError) in try client.pause(id: id) } }
    }
}
