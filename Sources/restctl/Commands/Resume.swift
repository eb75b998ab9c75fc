import ArgumentParser
import Localization
import RestClient

extension Restctl {
    struct Resume: TimerAction {
        static let configuration = CommandConfiguration(
            commandName: "resume", abstract: localized("Resume a paused timer."))

        @OptionGroup var timer: TimerSelection
        @OptionGroup var output: OutputFormat

        func change(_ id: String) -> TimerChange { { client throws(ClientError) in try client.resume(id: id) } }
    }
}
