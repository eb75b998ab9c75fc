import ArgumentParser
import Clocks
import Localization
import RestClient
import RestProtocol

extension Restctl {
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: localized("Show one timer."),
            discussion: localized(
                """
                With --json and no such timer, prints null (and the sentence on stderr, exit \
                status 1), so that a pipeline into jq reads a value either way. When no \
                notification server is running and none can be started, a note on stderr after \
                the timer says that "Rest over" will not be shown; --json has \
                notification_server (running, activatable or missing).
                """))

        @OptionGroup var timer: TimerSelection
        @OptionGroup var output: OutputFormat

        func run() throws {
            try Self.show(id: try timer.timerID(), json: output.json)
        }

        /// Prints the timer `id` (a valid id), and after it the note about a missing notification
        /// server; `FastPath` calls this too.
        static func show(id: String, json: Bool) throws(RestctlError) {
            let result = Result { () throws(RestctlError) -> (TimerSnapshot, NotificationServerState?) in
                try RestdConnection.withClient { client throws(ClientError) in
                    try client.timerAndNotificationServer(id: id)
                }
            }
            switch result {
            case .success(let (snapshot, server)):
                let now = KernelClock.realtimeUSec
                print(
                    json
                        ? TimerJSON.statusObject(snapshot, now: now, notificationServer: server)
                        : TimerLine.format(snapshot, now: now))
                if let note = NotificationServerNote.note(for: server) { StandardError.write("restctl: \(note)\n") }
            case .failure(let failure):
                if json && failure.isNoSuchTimer { print("null") }
                throw failure
            }
        }
    }
}
