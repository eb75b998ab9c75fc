import EventLoop
import Glibc
import RestCore
import TestClock
import Testing

@testable import RestDaemon

/// What the scheduler asks of the player as the book changes: the alarm follows the ringing
/// timers, one ring for a rest without ring_for, nothing when sound is off. (When the cues play
/// is CueClock's, on the test clock: CueClockTests.)
@Suite struct SoundSchedulerTests {
    final class RecordingPlayer: SoundPlayer {
        var calls: [String] = []
        func prepare() { calls.append("prepare") }
        func playCue() { calls.append("cue") }
        func startAlarm(once: Bool) { calls.append(once ? "ring once" : "ring") }
        func stopAlarm() { calls.append("stop") }
    }

    let clock = ManualTimeSource(Instant(realtime: 1_700_000_000_000_000, boottime: 5_000_000_000))
    let tea = try! TimerID(parsing: "tea")
    let player = RecordingPlayer()

    /// A scheduler over `book`, changed by `change` and told of its events.
    func scheduler(_ book: Box, enabled: Bool = true) throws -> SoundScheduler {
        try SoundScheduler(loop: EventLoop(), player: player, cueCount: 3, enabled: enabled) { book.book }
    }

    final class Box {
        var book: TimerBook
        init(_ book: TimerBook) { self.book = book }

        @discardableResult
        func commit(_ events: [TimerEvent]) -> [TimerEvent] {
            book.apply(events)
            return events
        }
    }

    @Test func theAlarmRingsWhileATimerRingsAndStopsWhenTheLastIsQuiet() throws {
        let box = Box(TimerBook())
        let sounds = try scheduler(box)
        for id in [tea, try TimerID(parsing: "two")] {
            sounds.timersChanged(
                box.commit(try box.book.start(id, durationUSec: 60_000_000, options: TimerOptions(), now: clock.now())))
        }
        clock.advance(60_000_000)
        sounds.timersChanged(box.commit(box.book.due(now: clock.now())))
        #expect(player.calls == ["ring"], "one alarm for both")
        sounds.timersChanged(box.commit(try box.book.silence(tea, now: clock.now())))
        #expect(player.calls == ["ring"], "the other still rings")
        sounds.timersChanged(box.commit(try box.book.restart(try TimerID(parsing: "two"), now: clock.now())))
        #expect(player.calls == ["ring", "stop"])
        #expect(!sounds.isRinging)
    }

    @Test func ringForZeroRingsOnceAndARestEndedByHandNotAtAll() throws {
        let box = Box(TimerBook(limits: TimerLimits(ringForUSec: 0)))
        let sounds = try scheduler(box)
        sounds.timersChanged(
            box.commit(try box.book.start(tea, durationUSec: 60_000_000, options: TimerOptions(), now: clock.now())))
        clock.advance(60_000_000)
        sounds.timersChanged(box.commit(box.book.due(now: clock.now())))
        #expect(player.calls == ["ring once"])
        sounds.timersChanged(box.commit(try box.book.restart(tea, now: clock.now())))
        sounds.timersChanged(box.commit(try box.book.adjust(tea, deltaUSec: -60_000_000, now: clock.now())))
        #expect(player.calls == ["ring once"])
    }

    @Test func withSoundOffNothingPlaysAndTurningItOffStopsTheAlarm() throws {
        let box = Box(TimerBook())
        let sounds = try scheduler(box)
        sounds.timersChanged(
            box.commit(try box.book.start(tea, durationUSec: 60_000_000, options: TimerOptions(), now: clock.now())))
        clock.advance(60_000_000)
        sounds.timersChanged(box.commit(box.book.due(now: clock.now())))
        sounds.enabled = false
        #expect(player.calls == ["ring", "stop"])
        sounds.timersChanged(box.commit(try box.book.restart(tea, now: clock.now())))
        clock.advance(60_000_000)
        sounds.timersChanged(box.commit(box.book.due(now: clock.now())))
        #expect(player.calls == ["ring", "stop"])
    }
}
