import ArgumentParser
import Localization
import RestClient

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Restctl {
    struct Watch: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch",
            abstract: localized("Print the timer and live fields as they change."),
            discussion: localized(
                """
                One line per change, and once a second while the timer runs or is over (on the \
                second of its end); nothing wakes it while the timer is paused or there is none. \
                In a terminal, the text format redraws one line in place instead.

                text: the timer's line, or idle when there is no such timer, then " | " and \
                the live fields (heart_rate=142 progress=3/5 exercise="Bench press" …). \
                json: {"timer":{…} or null,"live":{…}}. waybar: JSON for a custom module \
                with return-type json (text, alt, tooltip, class running, paused, expired or \
                idle, percentage of the rest gone by). polybar, i3blocks: the bar's text \
                (1:23 Squat → Bench press ♥142 3/5, paused 1:02, +0:12 once over, idle). \
                i3status-rs: JSON for a custom block with json = true (icon, state, text, \
                short_text).

                restd may stop and start meanwhile: the watch shows idle and goes on. It ends \
                quietly when its output is closed, and with status 69 when the bus goes away.
                """))

        @OptionGroup var timer: TimerSelection

        @Option(help: ArgumentHelp(localized("How to write each line, text by default."), valueName: "format"))
        var format: WatchFormat?

        @Flag(help: ArgumentHelp(localized("The same as --format json.")))
        var json = false

        @Option(help: ArgumentHelp(localized("The most live-field updates per second."), valueName: "hz"))
        var rate = "2"

        func validate() throws {
            if json, let format, format != .json {
                throw ValidationError(localized("--json is --format json; give one format only"))
            }
            _ = try rateHz()
        }

        private func rateHz() throws(RestctlError) -> Double {
            try NumberArgument.decimal(
                rate, option: "--rate", in: LiveInput.subscriberRateHz, unit: localized("updates per second"))
        }

        func run() throws {
            // A closed stdout must be an error from write(2) (EPIPE), not a silent death.
            signal(SIGPIPE, SIG_IGN)
            let format = self.format ?? (json ? .json : .text)
            let id = try timer.timerID()
            let rateHz = try rateHz()
            let session: WatchSession
            do {
                session = try WatchSession(timerID: id, rateHz: rateHz)
            } catch {
                throw RestctlError(error)
            }
            session.onWarning = { StandardError.write("restctl: " + localized("no live fields: %1$s", $0) + "\n") }
            // Lines for bars and pipes; a person at a terminal gets one line redrawn in place.
            let inPlace = format == .text && Terminal.isStandardOutput
            if inPlace { Terminal.endLineOnInterrupt() }
            var previous: String?
            var writeError: Int32?
            do {
                try session.run { state, now in
                    let line = format.line(state, now: now)
                    guard line != previous else { return true }
                    previous = line
                    if inPlace {
                        writeError = StandardOutput.write(
                            "\r" + Terminal.fitted(line, columns: Terminal.columns()) + "\u{1B}[K")
                    } else {
                        writeError = StandardOutput.writeLine(line)
                    }
                    return writeError == nil
                }
            } catch {
                throw RestctlError(error)
            }
            if let writeError, writeError != EPIPE {
                throw RestctlError(
                    .failed, localized("cannot write to standard output: %1$s", String(cString: strerror(writeError))))
            }
        }
    }
}

// restctl is where formats become arguments; RestClient knows nothing of ArgumentParser.
extension WatchFormat: ExpressibleByArgument {}
