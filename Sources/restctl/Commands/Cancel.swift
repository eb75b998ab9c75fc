import ArgumentParser
import Localization
import RestClient

extension Restctl {
    struct Cancel: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cancel",
            abstract: localized("Remove a timer, or every timer with --all."),
            discussion: localized(
                """
                Says which timers it removed ("cancelled ID", one line each), or that there was \
                none with --all. 'restctl clear' removes only the timers that are over.
                """))

        @OptionGroup var timer: TimerSelection

        @Flag(help: ArgumentHelp(localized("Remove every timer, whatever its state.")))
        var all = false

        func validate() throws {
            if all && timer.id != TimerIDParser.defaultID {
                throw ValidationError(localized("--all removes every timer; give no --id with it"))
            }
        }

        func run() throws {
            if all {
                let cancelled = try RestdConnection.withClient { client throws(ClientError) in
                    try client.cancelTimers { _ in true }
                }
                print(
                    cancelled.isEmpty
                        ? localized("no timers to cancel")
                        : cancelled.map { localized("cancelled %1$s", $0) }.joined(separator: "\n"))
                return
            }
            let id = try timer.timerID()
            try RestdConnection.withClient { client throws(ClientError) in try client.cancel(id: id) }
            print(localized("cancelled %1$s", id))
        }
    }
}
