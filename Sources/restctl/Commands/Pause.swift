import ArgumentParser
import RestClient

extension Restctl {
    struct Pause: TimerAction {
        static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause a running timer.")

        @OptionGroup var timer: TimerSelection
        @OptionGroup var output: OutputFormat

        func change(_ id: String) -> TimerChange { { client throws(ClientError) in try client.pause(id: id) } }
    }
}
