import Clocks
import Localization
import RestClient
import RestProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `restctl start --wait` and `restctl wait`: follows a timer until its rest is over.
///
/// The watch is set up before the start (or the first look at the timer), on the same
/// connection, so that no change can fall between the two. In a terminal a countdown line is
/// redrawn at every second of the timer (and when restd announces a change); otherwise nothing
/// wakes restctl but restd's signals.
struct RestWait {
    let timerID: String
    let output: OutputFormat
    /// Without a terminal, print the timer once it is followed (`start --wait`: what `start`
    /// prints); `wait` prints nothing there.
    var announces = true

    /// Runs `begin` on the session's connection (`start` starts the timer there; `wait` reads it,
    /// so that a missing timer is restd's "no timer" sentence), then waits.
    func run(starting begin: (RestdClient) throws(ClientError) -> Void) throws(RestctlError) {
        let terminal = Terminal.isStandardOutput
        let session: WatchSession
        do {
            // The live fields only matter to the countdown.
            session = try WatchSession(timerID: timerID, rateHz: terminal ? 2 : nil)
            try begin(session.client)
        } catch {
            throw RestctlError(error)
        }
        // In a terminal or not, a signal stops the waiting the same way: a note, then its status.
        Terminal.noteOnInterrupt(erasing: terminal)

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
                } else if announces, !announced, session.isFollowing, let timer = state.timer {
                    // What `start` prints, once: the timer as restd has it after the start.
                    _ = StandardOutput.writeLine(output.text(timer, now: now))
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
            if terminal, let last {
                print(output.text(last, now: KernelClock.realtimeUSec))
                if Self.restdIsSilent(at: last, soundServer: try? session.client.soundServer()) {
                    // The bell, so that someone with only a terminal hears the end too.
                    _ = StandardOutput.write("\u{7}")
                }
            }
        case .cancelled:
            throw RestctlError(
                .failed, localized("timer %1$s was cancelled before its rest was over", "\"\(timerID)\""))
        case .daemonGone:
            throw RestctlError(
                .unavailable,
                localized(
                    "restd stopped before the rest was over; the timer is kept, and restd takes it up again when it starts: %1$s",
                    ServiceHint.startRestd))
        case .waiting:
            break  // run returns only once the outcome is known
        }
    }

    /// Whether restd plays nothing at the end of this rest (`timer` as it was at the end): the
    /// rest has no sound, no sound server answers, or restd has needed none ("unknown" at the end
    /// of a rest that does not ring: [sound] enabled is false). A restd too old to say is taken
    /// as heard.
    static func restdIsSilent(at timer: TimerSnapshot, soundServer: SoundServerState?) -> Bool {
        guard timer.sound else { return true }
        switch soundServer {
        case .missing: return true
        case .unknown: return !timer.ringing
        case .available, nil: return false
        }
    }
}
