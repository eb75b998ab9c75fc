import ArgumentParser
import RestClient

extension Restctl {
    struct Resume: TimerAction {
        static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume a paused timer.")

        @OptionGroup var timer: TimerSelection
        @OptionGroup var output: OutputFormat

        func change(_ id: String) -> TimerChange { { client throws(ClientError) in try client.resume(id: id) } }
    }
}
