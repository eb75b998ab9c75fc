import Glibc

/// Runs work in a later iteration of the loop, after the sources that are pending when it is
/// queued: for long work done in slices (a large reply), which must leave the loop to the rest
/// between two slices.
///
/// sd-event dispatches one source per iteration, the one pending since the earliest iteration
/// first (at equal priority). An elapsed timer becomes pending in the iteration that sees it, so
/// what was already pending — a readable socket, a due timer — goes before the next slice, and
/// what becomes pending in that same iteration goes before the slice after it (sd-event breaks
/// that tie as it likes). A lower priority would let a stream of calls starve the work; a
/// deferred source would starve the rest: it stays pending from the iteration it was enabled
/// in, ahead of everything that becomes pending later.
public final class LaterQueue {
    private let loop: EventLoop
    private var queued: [() -> Void] = []
    private var timer: TimerSource!

    public init(loop: EventLoop) throws(SystemError) {
        self.loop = loop
        timer = try loop.addTimer(clock: CLOCK_MONOTONIC, at: 0, accuracyUSec: 1) { [unowned self] _ in
            self.runQueued()
        }
        timer.isEnabled = false
    }

    /// Queues `work` for a later iteration.
    public func run(_ work: @escaping () -> Void) {
        queued.append(work)
        if queued.count == 1 { timer.schedule(at: loop.now(CLOCK_MONOTONIC)) }
    }

    /// Runs what was queued before this iteration; work queued by it waits for the next.
    private func runQueued() {
        let due = queued
        queued.removeAll()
        for work in due { work() }
        if !queued.isEmpty { timer.schedule(at: loop.now(CLOCK_MONOTONIC)) }
    }
}
