import ArgumentParser
import Localization
import RestClient

extension Restctl {
    struct Restart: TimerAction {
        static let configuration = CommandConfiguration(
            commandName: "restart",
            abstract: localized("Run a timer again for its original duration."))

        @OptionGroup var timer: TimerSelection
        @OptionGroup var output: OutputFormat

        func change(_ id: String) -> TimerChange { { client throws(ClientError) in try client.restart(id: id) } }
    }
}
