import ArgumentParser
import RestClient

extension Restctl {
    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "start",
            abstract: "Start (or replace) a timer.")

        @Argument(help: ArgumentHelp("How long to rest: 90, 90s, 1m30s, 1:30, 1h2m3s or 1:02:03.",
                                     valueName: "duration"))
        var duration = "90"

        @Option(help: ArgumentHelp("What the rest is for.", valueName: "text"))
        var label: String?

        @Option(help: ArgumentHelp("What to do once it is over.", valueName: "text"))
        var next: String?

        @Flag(name: .customLong("no-notify"), help: "Send no desktop notification when it runs out.")
        var noNotify = false

        @OptionGroup var timer: TimerSelection

        func validate() throws {
            _ = try durationUSec(duration)
        }

        func run() throws {
            let usec = try durationUSec(duration)
            let id = timer.timerID
            try Daemon.act(on: id) { client throws(ClientError) in
                try client.start(id: id, durationUSec: usec, label: label, next: next,
                                 notify: noNotify ? false : nil)
            }
        }
    }
}
