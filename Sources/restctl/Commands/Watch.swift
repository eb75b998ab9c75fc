import ArgumentParser
import RestClient
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Restctl {
    struct Watch: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the timer and live fields as they change.",
            discussion: """
                One line per change: the timer's line, or idle when there is no such timer, \
                then " | " and the live fields (heart_rate=142 progress=3/5 \
                exercise="Bench press" …). With --json, one object per line: \
                {"timer":{…} or null,"live":{…}}.

                restd may stop and start meanwhile: the watch shows idle and goes on. It ends \
                quietly when its output is closed, and with status 69 when the bus goes away.
                """)

        @OptionGroup var timer: TimerSelection
        @OptionGroup var output: OutputFormat

        @Option(help: ArgumentHelp("The most live-field updates per second.", valueName: "hz"))
        var rate: Double = 2

        func validate() throws {
            let range = LiveInput.subscriberRateHz
            guard rate.isFinite, range.contains(rate) else {
                throw ValidationError("--rate \(number(rate)) is out of range \(number(range.lowerBound))…\(number(range.upperBound)) Hz")
            }
        }

        func run() throws {
            // A closed stdout must be an error from write(2) (EPIPE), not a silent death.
            signal(SIGPIPE, SIG_IGN)
            let format: WatchFormat = output.json ? .json : .text
            let session: WatchSession
            do {
                session = try WatchSession(timerID: timer.timerID, rateHz: rate)
            } catch {
                throw RestctlError(error)
            }
            session.onWarning = { StandardError.write("restctl: no live fields: \($0)\n") }
            var previous: String?
            var writeError: Int32?
            do {
                try session.run { state in
                    let line = format.line(state, now: WallClock.nowUSec())
                    guard line != previous else { return true }
                    previous = line
                    writeError = StandardOutput.writeLine(line)
                    return writeError == nil
                }
            } catch {
                throw RestctlError(error)
            }
            if let writeError, writeError != EPIPE {
                throw RestctlError(.failed, "cannot write to standard output: \(String(cString: strerror(writeError)))")
            }
        }

        private func number(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        }
    }
}
