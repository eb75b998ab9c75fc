import RestCore
import TestClock
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let second: USec = 1_000_000
let minute: USec = 60 * second
let hour: USec = 60 * minute

/// The wall-clock instant the tests' clocks start at: `RESTD_TEST_NOW` (seconds since the epoch)
/// when set, so that `make test-calendar` runs the core on other days; otherwise a fixed day in
/// November 2023. A test that needs a date computes it from this, never writes one in.
let testEpoch: USec = {
    guard let text = getenv("RESTD_TEST_NOW").map({ String(cString: $0) }), let seconds = USec(text) else {
        return 1_700_000_000 * second
    }
    return seconds * second
}()

extension ManualTimeSource {
    /// Starts at `testEpoch`, about 83 minutes after boot.
    convenience init() {
        self.init(Instant(realtime: testEpoch, boottime: 5_000 * second))
    }
}

func tid(_ text: String) -> TimerID {
    do {
        return try TimerID(parsing: text)
    } catch {
        fatalError("test id \(text) is invalid: \(error)")
    }
}

extension TimerBook {
    /// Applies planned events and hands them back, the way the daemon commits a plan.
    @discardableResult
    mutating func commit(_ events: [TimerEvent]) -> [TimerEvent] {
        apply(events)
        return events
    }
}

extension TimerError {
    var kind: String {
        switch self {
        case .invalidArgs: "invalidArgs"
        case .noSuchTimer: "noSuchTimer"
        case .invalidState: "invalidState"
        case .limitExceeded: "limitExceeded"
        }
    }
}

/// Runs `body` and returns the TimerError it threw, or nil; any other error fails the test.
func thrown(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> TimerError? {
    do {
        try body()
        return nil
    } catch let error as TimerError {
        return error
    } catch {
        Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// A book with one timer "tea" started at the clock's current time.
func bookWithTea(
    _ clock: ManualTimeSource, durationUSec: USec = 60 * second, limits: TimerLimits = .standard
)
    throws -> TimerBook
{
    var book = TimerBook(limits: limits)
    try book.commit(
        book.start(tid("tea"), durationUSec: durationUSec, options: TimerOptions(label: "Tea"), now: clock.now()))
    return book
}
