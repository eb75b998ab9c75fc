import ArgumentParser
import RestClient

extension Restctl {
    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "start",
            abstract: "Start (or replace) a timer.",
            discussion: """
                With --wait, restctl stays until the rest is over: in a terminal it shows a \
                countdown with a progress bar, otherwise it prints the timer's line and waits \
                silently. Exit status 0 when the rest is over, 1 when the timer is cancelled \
                first, 69 when restd goes away. Ctrl-C stops waiting but not the timer.
                """)

        @Argument(help: ArgumentHelp(
            "How long to rest: 90, 90s, 1m30s, 1:30, 1h2m3s or 1:02:03. Without it, restd's default_duration (90 s unless configured).",
            valueName: "duration"))
        var duration: String?

        @Option(help: ArgumentHelp("What the rest is for.", valueName: "text"))
        var label: String?

        @Option(help: ArgumentHelp("What to do once it is over.", valueName: "text"))
        var next: String?

        @Flag(name: .customLong("no-notify"), help: "Send no desktop notification when it runs out.")
        var noNotify = false

        @Option(help: ArgumentHelp("Warn with a notification this long before the end (e.g. 10s).",
                                   valueName: "duration"))
        var warn: String?

        @Flag(help: "Wait until the rest is over, with a countdown in a terminal.")
        var wait = false

        @OptionGroup var timer: TimerSelection

        func validate() throws {
            if let duration { _ = try durationUSec(duration) }
            if let warn { _ = try durationUSec(warn) }
        }

        func run() throws {
            let given = try duration.map(durationUSec)
            let warnUSec = try warn.map { text throws(ValidationError) in try durationUSec(text) }
            let id = timer.timerID
            let start = { (client: RestdClient) throws(ClientError) in
                // Asked only when needed: the default lives in restd's configuration.
                let usec: UInt64
                if let given { usec = given } else { usec = try client.defaultDurationUSec() }
                try client.start(id: id, durationUSec: usec, label: label, next: next,
                                 notify: noNotify ? false : nil, warnUSec: warnUSec)
            }
            if wait {
                try RestWait(timerID: id).run(starting: start)
            } else {
                try Daemon.act(on: id, start)
            }
        }
    }
}
