import RestClient
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `restctl start --wait`: starts the timer, then follows it until its rest is over.
///
/// The watch is set up before the start, on the same connection, so that no change can fall
/// between the two. In a terminal a countdown line is redrawn at every second of the timer
/// (and when restd announces a change); otherwise nothing wakes restctl but restd's signals.
struct RestWait {
    let timerID: String

    func run(starting start: (RestdClient) throws(ClientError) -> Void) throws(RestctlError) {
        let terminal = Terminal.isStandardOutput
        let session: WatchSession
        do {
            // The live fields only matter to the countdown.
            session = try WatchSession(timerID: timerID, rateHz: terminal ? 2 : nil)
            try start(session.client)
        } catch {
            throw RestctlError(error)
        }
        if terminal { Terminal.eraseOnInterrupt() }

        var outcome = WaitOutcome.waiting
        var last: TimerSnapshot?
        var drawn: String?
        var announced = false
        do {
            try session.run(ticking: terminal) { state, now in
                outcome = WaitOutcome(state, daemonPresent: session.isDaemonPresent, following: session.isFollowing)
                if let timer = state.timer { last = timer }
                if terminal {
                    guard outcome == .waiting else { return false }
                    let line = CountdownLine.render(state, now: now, columns: Terminal.columns())
                    if line != drawn {
                        Terminal.draw(line)
                        drawn = line
                    }
                } else if !announced, session.isFollowing, let timer = state.timer {
                    // What `start` prints, once: the timer as restd has it after the start.
                    _ = StandardOutput.writeLine(TimerLine.format(timer, now: now))
                    announced = true
                }
                return outcome == .waiting
            }
        } catch {
            if drawn != nil { Terminal.erase() }
            throw RestctlError(error)
        }
        if drawn != nil { Terminal.erase() }

        switch outcome {
        case .over:
            if terminal, let last { print(TimerLine.format(last, now: WallClock.nowUSec())) }
        case .cancelled:
            throw RestctlError(.failed, "timer \"\(timerID)\" was cancelled before its rest was over")
        case .daemonGone:
            throw RestctlError(.unavailable, "restd went away before the rest was over")
        case .waiting:
            break  // run returns only once the outcome is known
        }
    }
}
