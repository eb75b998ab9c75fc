import EventLoop
import Glibc
import Testing

@testable import EventLoop

/// Re-arming the clock-change timer after a jump may fail; clock changes must not then go
/// unnoticed in silence: the failure is reported and arming retried until it works.
@Suite("Wall-clock watcher")
struct WallClockWatcherTests {
    /// An arm function that fails (EINVAL) for the calls numbered in `failing` (0 is the first).
    final class Arming {
        var calls = 0
        let failing: Set<Int>
        init(failing: Set<Int>) { self.failing = failing }

        func arm(_ fd: Int32) -> Int32 {
            defer { calls += 1 }
            if failing.contains(calls) {
                errno = EINVAL
                return -1
            }
            return WallClockWatcher.armFarAway(fd)
        }
    }

    @Test("a failed re-arm is reported and retried until the timer is armed again")
    func retriesAfterAFailedRearm() throws {
        let loop = try EventLoop()
        let arming = Arming(failing: [1, 2])
        var errors: [String] = []
        var changes = 0
        let watcher = try WallClockWatcher(
            loop: loop, retryUSec: 1_000, arm: arming.arm,
            onError: { errors.append($0.description) }, onChange: { changes += 1 })
        #expect(arming.calls == 1)

        watcher.clockWasSet()
        #expect(changes == 1)
        #expect(errors.count == 1 && errors[0].contains("cannot re-arm the clock-change timer"), "\(errors)")
        // Two retries: one that fails again (reported), one that arms.
        while arming.calls < 4 { _ = try loop.runOnce(timeoutUSec: 1_000_000) }
        #expect(errors.count == 2)
        #expect(arming.calls == 4)
        // Armed again: no further retry is pending.
        _ = try loop.runOnce(timeoutUSec: 50_000)
        #expect(arming.calls == 4)
    }

    @Test("arming that never fails reports nothing")
    func quietWhenArmed() throws {
        let loop = try EventLoop()
        var errors: [String] = []
        let watcher = try WallClockWatcher(loop: loop, onError: { errors.append($0.description) }, onChange: {})
        watcher.clockWasSet()
        #expect(errors.isEmpty)
    }
}
