import ArgumentParser
import Localization
import RestClient
import RestCore

extension Restctl {
    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "start",
            abstract: localized("Start (or replace) a timer."),
            discussion: localized(
                """
                With --wait, restctl stays until the rest is over: in a terminal it shows a \
                countdown with a progress bar, otherwise it prints the timer's line and waits \
                silently. In a terminal it rings the terminal's bell once at the end when restd \
                plays no sound for the rest (--no-sound, no sound server, or [sound] enabled = \
                false in the configuration). Exit status 0 when the rest is over, 1 when the timer is cancelled \
                first, 69 when restd goes away. Ctrl-C, SIGTERM and SIGHUP stop the waiting \
                (with a note on stderr and the signal's status) but not the timer. When no \
                notification server is running and none can be started, a note on stderr says \
                so, once each time the server goes missing (status says it every time); likewise, once, \
                when no sound server answered for restd's last sound (not with --no-sound).
                """))

        @Argument(
            help: ArgumentHelp(
                localized(
                    "How long to rest: 90, 90s, 1m30s, 1:30, 1h2m3s or 1:02:03. Without it, restd's default_duration (90 s unless configured)."
                ),
                valueName: "duration"))
        var duration: String?

        @Option(help: ArgumentHelp(localized("What the rest is for."), valueName: "text"))
        var label: String?

        @Option(help: ArgumentHelp(localized("What to do once it is over."), valueName: "text"))
        var next: String?

        @Flag(
            name: .customLong("no-notify"),
            help: ArgumentHelp(localized("Send no desktop notification when it runs out.")))
        var noNotify = false

        @Flag(
            name: .customLong("no-sound"),
            help: ArgumentHelp(
                localized("Play no cues before the end and no alarm at it (the notification still shows).")))
        var noSound = false

        @Option(
            help: ArgumentHelp(
                localized("Warn with a notification this long before the end (e.g. 10s)."),
                valueName: "duration"))
        var warn: String?

        @Flag(
            help: ArgumentHelp(
                localized(
                    "Wait until the rest is over, with a countdown (and a bell at the end when restd plays no sound) in a terminal."
                ))
        )
        var wait = false

        @OptionGroup var timer: TimerSelection
        @OptionGroup var output: OutputFormat

        func validate() throws {
            // What restd would refuse is a usage error here, like --exercise's.
            for (option, text) in [("--label", label), ("--next", next)] {
                guard let text else { continue }
                do {
                    try TimerOptions.validateText(text, field: option, limits: .standard)
                } catch {
                    throw RestctlError(.usage, error.message)
                }
            }
            let rest = try duration.map { text throws(RestctlError) in try durationUSec(text, as: .rest) }
            if let warn {
                let warnUSec = try durationUSec(warn, as: .warning)
                if let rest { try checkWarning(warn, warnUSec: warnUSec, restUSec: rest) }
            }
        }

        func run() throws {
            let id = try timer.timerID()
            let given = try duration.map { text throws(RestctlError) in try durationUSec(text, as: .rest) }
            let warnUSec = try warn.map { text throws(RestctlError) in try durationUSec(text, as: .warning) }
            // Without a duration, the rest is restd's default_duration: asked first, so that
            // --warn is checked against it like against a duration given here.
            let usec =
                try given
                ?? RestdConnection.withClient { client throws(ClientError) in try client.defaultDurationUSec() }
            if let warn, let warnUSec { try checkWarning(warn, warnUSec: warnUSec, restUSec: usec) }
            // Said once each time the notification or sound server goes missing (restd keeps
            // count): after the timer's line, or before the waiting.
            var notes: [String] = []
            let start = { (client: RestdClient) throws(ClientError) -> Void in
                _ = try client.start(
                    id: id, durationUSec: usec, label: label, next: next,
                    notify: noNotify ? false : nil, sound: noSound ? false : nil, warnUSec: warnUSec)
                if !noNotify { notes += NotificationServerNote.take(from: client).map { [$0] } ?? [] }
                if !noSound { notes += SoundServerNote.take(from: client).map { [$0] } ?? [] }
            }
            let say = { for note in notes { StandardError.write("restctl: \(note)\n") } }
            if wait {
                try RestWait(timerID: id, output: output).run { client throws(ClientError) in
                    try start(client)
                    say()
                }
            } else {
                try RestdConnection.act(on: id, output: output, start)
                say()
            }
        }
    }
}
