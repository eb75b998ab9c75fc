import RestCore
import RestNotify
import Testing

/// A timer book driven by hand, feeding a tracker the way the daemon does.
struct Scenario {
    var now = Instant(realtime: 1_700_000_000 * second, boottime: 5_000 * second)
    var book = TimerBook()
    var tracker = NotificationTracker()

    mutating func run(_ plan: (TimerBook, Instant) throws -> [TimerEvent]) throws {
        let events = try plan(book, now)
        book.apply(events)
        tracker.record(events)
    }

    mutating func start(
        _ id: String, _ duration: USec = minute, warn: USec = 0, notify: Bool = true,
        label: String = "", next: String = ""
    ) throws {
        try run { book, now in
            try book.start(
                tid(id), durationUSec: duration,
                options: TimerOptions(label: label, next: next, notify: notify, warnUSec: warn), now: now)
        }
    }

    /// Time passes; whatever is due happens.
    mutating func advance(_ usec: USec) {
        now.realtime += usec
        now.boottime += usec
        let events = book.due(now: now)
        book.apply(events)
        tracker.record(events)
    }

    mutating func commands() -> [NotificationTracker.Command] {
        tracker.commands(now: now.realtime)
    }

    func timer(_ id: String) -> RestTimer? { book.timer(tid(id)) }
}

extension NotificationTracker.Command {
    var ticket: NotificationTracker.Ticket? {
        if case .show(let ticket, _, _) = self { ticket } else { nil }
    }

    var alert: Alert? {
        if case .show(_, let alert, _) = self { alert } else { nil }
    }

    /// For comparisons: the command without its ticket.
    var shape: String {
        switch self {
        case .show(let ticket, let alert, let replacing):
            let kind =
                switch alert.kind {
                case .warning: "warning"
                case .expired: "expired"
                case .workoutDone: "workout done"
                }
            let subject =
                switch ticket.subject {
                case .timer(let id): id.rawValue
                case .workout: "workout"
                }
            return "show \(subject) \(kind) replacing \(replacing)"
        case .close(let id):
            return "close \(id)"
        }
    }
}

@Suite struct NotificationTrackerTests {
    @Test func anExpiryIsShownOnceAndClosedByARestart() throws {
        var s = Scenario()
        try s.start("squat", label: "Squat", next: "Bench press")
        #expect(s.commands().isEmpty)
        let deadline = try #require(s.timer("squat")).endsAtUSec
        s.advance(minute)
        let commands = s.commands()
        #expect(commands.map(\.shape) == ["show squat expired replacing 0"])
        #expect(
            commands.first?.alert
                == Alert(.expired(deadlineUSec: deadline), timerID: tid("squat"), label: "Squat", next: "Bench press"))
        s.tracker.shown(try #require(commands.first?.ticket), id: 1)
        #expect(s.commands().isEmpty)
        #expect(s.tracker.owns(id: 1) && s.tracker.shownID(.timer(tid("squat"))) == 1)

        try s.run { book, now in try book.restart(tid("squat"), now: now) }
        #expect(s.commands().map(\.shape) == ["close 1"])
        #expect(!s.tracker.owns(id: 1))
        #expect(s.commands().isEmpty)
    }

    @Test func timersWithoutNotifyShowNothing() throws {
        var s = Scenario()
        try s.start("quiet", warn: 10 * second, notify: false)
        s.advance(minute)
        #expect(s.timer("quiet")?.state == .expired)
        #expect(s.commands().isEmpty)
    }

    @Test(arguments: ["adjust", "restart", "replace", "cancel", "retention"])
    func theRestOverNotificationGoesWhenItsTimerMovesOn(_ how: String) throws {
        var s = Scenario()
        try s.start("t")
        s.advance(minute)
        s.tracker.shown(try #require(s.commands().first?.ticket), id: 9)
        switch how {
        case "adjust": try s.run { book, now in try book.adjust(tid("t"), deltaUSec: 30_000_000, now: now) }
        case "restart": try s.run { book, now in try book.restart(tid("t"), now: now) }
        case "replace": try s.start("t", label: "Other")
        case "cancel": try s.run { book, now in try book.cancel(tid("t"), now: now) }
        default: s.advance(hour)
        }
        #expect(s.commands().map(\.shape) == ["close 9"])
        #expect(s.tracker.wanted(.timer(tid("t"))) == nil)
    }

    @Test func thePreAlertIsReplacedByTheExpiry() throws {
        var s = Scenario()
        try s.start("t", warn: 10 * second)
        s.advance(50 * second)
        let warning = s.commands()
        #expect(warning.map(\.shape) == ["show t warning replacing 0"])
        s.tracker.shown(try #require(warning.first?.ticket), id: 4)
        #expect(s.commands().isEmpty)
        s.advance(10 * second)
        let expiry = s.commands()
        #expect(expiry.map(\.shape) == ["show t expired replacing 4"])
        s.tracker.shown(try #require(expiry.first?.ticket), id: 4)
        #expect(s.commands().isEmpty)
        #expect(s.tracker.shownID(.timer(tid("t"))) == 4)
    }

    @Test func anExpiryWaitsForThePreAlertsIDBeforeReplacingIt() throws {
        var s = Scenario()
        try s.start("t", warn: 10 * second)
        s.advance(50 * second)
        let warning = try #require(s.commands().first?.ticket)
        s.advance(10 * second)
        // The pre-alert's Notify has not been answered: nothing to replace yet, so wait.
        #expect(s.commands().isEmpty)
        s.tracker.shown(warning, id: 12)
        #expect(s.commands().map(\.shape) == ["show t expired replacing 12"])
    }

    @Test func aTimerRestartedWhileItsNotifyIsUnderWayClosesItOnceShown() throws {
        var s = Scenario()
        try s.start("t")
        s.advance(minute)
        let ticket = try #require(s.commands().first?.ticket)
        try s.run { book, now in try book.restart(tid("t"), now: now) }
        #expect(s.commands().isEmpty)
        s.tracker.shown(ticket, id: 3)
        #expect(s.commands().map(\.shape) == ["close 3"])
    }

    @Test func pausingAfterThePreAlertClosesIt() throws {
        var s = Scenario()
        try s.start("t", warn: 10 * second)
        s.advance(52 * second)
        s.tracker.shown(try #require(s.commands().first?.ticket), id: 2)
        try s.run { book, now in try book.pause(tid("t"), now: now) }
        #expect(s.commands().map(\.shape) == ["close 2"])
        try s.run { book, now in try book.resume(tid("t"), now: now) }
        #expect(s.commands().isEmpty)
        s.advance(8 * second)
        #expect(s.commands().map(\.shape) == ["show t expired replacing 0"])
    }

    @Test func thePreAlertIsUpdatedInPlaceThroughAWallClockStepAndAFewSecondsMore() throws {
        var s = Scenario()
        try s.start("t", warn: 10 * second)
        s.advance(52 * second)
        s.tracker.shown(try #require(s.commands().first?.ticket), id: 2)
        s.now.realtime += hour
        try s.run { book, now in book.wallClockChanged(now: now) }
        // Replaced in place with the moved deadline, not closed.
        let moved = s.commands()
        #expect(moved.map(\.shape) == ["show t warning replacing 2"])
        #expect(moved.first?.alert?.kind == .warning(deadlineUSec: try #require(s.timer("t")).endsAtUSec))
        s.tracker.shown(try #require(moved.first?.ticket), id: 2)
        try s.run { book, now in try book.adjust(tid("t"), deltaUSec: 2_000_000, now: now) }
        let longer = s.commands()
        #expect(longer.map(\.shape) == ["show t warning replacing 2"])
        s.tracker.shown(try #require(longer.first?.ticket), id: 2)
        // Out of the pre-alert time again: it goes, and comes back at 10 s left.
        try s.run { book, now in try book.adjust(tid("t"), deltaUSec: 30_000_000, now: now) }
        #expect(s.commands().map(\.shape) == ["close 2"])
        s.advance(30 * second)
        #expect(s.commands().map(\.shape) == ["show t warning replacing 0"])
    }

    @Test func aFailedNotifyIsNotRetriedUntilTheServerChanges() throws {
        var s = Scenario()
        try s.start("t")
        s.advance(minute)
        s.tracker.failed(try #require(s.commands().first?.ticket))
        #expect(s.commands().isEmpty)
        #expect(s.tracker.wanted(.timer(tid("t"))) != nil)
        s.advance(10 * second)
        #expect(s.commands().isEmpty)

        s.tracker.serverChanged()
        let retry = s.commands()
        #expect(retry.map(\.shape) == ["show t expired replacing 0"])
        s.tracker.shown(try #require(retry.first?.ticket), id: 1)
        #expect(s.commands().isEmpty)
    }

    @Test func aServerAppearingRetriesWhatFailedAndKeepsWhatIsUnderWay() throws {
        var s = Scenario()
        try s.start("a")
        try s.start("b", 2 * minute)
        s.advance(minute)
        s.tracker.failed(try #require(s.commands().first?.ticket))
        s.advance(minute)
        let underWay = try #require(s.commands().first?.ticket)
        #expect(underWay.subject == .timer(tid("b")))

        s.tracker.retryFailed()
        #expect(s.commands().map(\.shape) == ["show a expired replacing 0"])
        // b's call reaches the server that appeared: its answer still counts.
        s.tracker.shown(underWay, id: 1)
        #expect(s.tracker.shownID(.timer(tid("b"))) == 1)
        #expect(s.commands().isEmpty)
    }

    @Test func aNewAlertIsTriedEvenAfterAFailure() throws {
        var s = Scenario()
        try s.start("t", 30 * second, warn: 10 * second)
        s.advance(20 * second)
        s.tracker.failed(try #require(s.commands().first?.ticket))
        s.advance(10 * second)
        #expect(s.commands().map(\.shape) == ["show t expired replacing 0"])
    }

    @Test func aNewServerGetsWhatIsWantedAndAnswersFromTheOldOneAreIgnored() throws {
        var s = Scenario()
        try s.start("a")
        try s.start("b")
        s.advance(minute)
        let first = s.commands()
        #expect(first.map(\.shape) == ["show a expired replacing 0", "show b expired replacing 0"])
        s.tracker.shown(try #require(first[0].ticket), id: 1)

        s.tracker.serverChanged()
        #expect(!s.tracker.owns(id: 1))
        let again = s.commands()
        // Both again, on the new server, as new notifications: the old ids mean nothing there.
        #expect(again.map(\.shape) == ["show a expired replacing 0", "show b expired replacing 0"])
        // The old server's late answer for b is not taken for the new one's.
        s.tracker.shown(try #require(first[1].ticket), id: 77)
        #expect(!s.tracker.owns(id: 77))
        s.tracker.shown(try #require(again[1].ticket), id: 5)
        #expect(s.tracker.shownID(.timer(tid("b"))) == 5)
    }

    @Test func aRestOverTooLongAgoIsNotShown() throws {
        var s = Scenario()
        try s.start("t")
        s.advance(minute)
        s.tracker.failed(try #require(s.commands().first?.ticket))
        s.advance(hour)  // the server appears an hour and more later; retention has removed the timer
        s.tracker.serverChanged()
        #expect(s.commands().isEmpty)

        // Restored at start-up 59 minutes late: shown; once stale, no longer wanted.
        var late = Scenario()
        try late.start("t")
        late.advance(minute)
        late.tracker = NotificationTracker()
        late.tracker.record(
            late.book.timers.values.map { timer in
                .expired(id: timer.id, deadlineUSec: timer.expiredAtUSec, firedUSec: late.now.realtime)
            })
        #expect(late.commands().isEmpty, "an .expired without its .changed in the batch is ignored")
        let timer = try #require(late.timer("t"))
        late.tracker.record([
            .changed(from: timer, to: timer),
            .expired(id: timer.id, deadlineUSec: timer.expiredAtUSec, firedUSec: late.now.realtime),
        ])
        late.now.realtime += 59 * minute
        let shown = late.commands()
        #expect(shown.map(\.shape) == ["show t expired replacing 0"])
        late.tracker.failed(try #require(shown.first?.ticket))
        late.now.realtime += 2 * minute
        late.tracker.serverChanged()
        #expect(late.commands().isEmpty)
        #expect(late.tracker.wanted(.timer(tid("t"))) == nil)
    }

    @Test func aRestOverShownAnHourAgoIsClosedByTheNextCommandsAlone() throws {
        var s = Scenario()
        try s.start("a")
        try s.start("b", 2 * minute)
        s.advance(minute)
        s.tracker.shown(try #require(s.commands().first?.ticket), id: 1)
        s.advance(minute)
        s.tracker.shown(try #require(s.commands().first?.ticket), id: 2)
        #expect(s.commands().isEmpty)
        // No event touches either: only time passes. a goes stale first, then b.
        s.now.realtime += hour - minute
        #expect(s.commands().isEmpty, "a ended an hour ago exactly: stale only after that")
        s.now.realtime += 1
        #expect(s.commands().map(\.shape) == ["close 1"])
        #expect(s.commands().isEmpty)
        s.now.realtime += minute
        #expect(s.commands().map(\.shape) == ["close 2"])
        #expect(s.commands().isEmpty && s.tracker.wanted(.timer(tid("b"))) == nil)
    }

    @Test func aThousandAnswersMakeNoMoreCallsThanNeeded() throws {
        var s = Scenario()
        for index in 0..<1000 { try s.start("t\(index)") }
        s.advance(minute)
        let shows = s.commands()
        #expect(shows.count == 1000)
        for (offset, command) in shows.enumerated() {
            s.tracker.shown(try #require(command.ticket), id: UInt32(offset + 1))
            #expect(s.commands().isEmpty)
        }
        #expect(s.tracker.shownID(.timer(tid("t999"))) != nil)
    }

    @Test func closedByTheUserOrTheServerStaysClosed() throws {
        var s = Scenario()
        try s.start("t")
        s.advance(minute)
        s.tracker.shown(try #require(s.commands().first?.ticket), id: 6)
        s.tracker.closed(id: 99)  // not ours
        #expect(s.tracker.owns(id: 6))
        s.tracker.closed(id: 6)
        #expect(s.commands().isEmpty)
        #expect(s.tracker.wanted(.timer(tid("t"))) == nil && !s.tracker.owns(id: 6))
        s.tracker.serverChanged()
        #expect(s.commands().isEmpty)
    }

    @Test func aPreAlertClosedWhileItsReplacementIsUnderWayStillTurnsIntoRestOver() throws {
        var s = Scenario()
        try s.start("t", warn: 10 * second)
        s.advance(50 * second)
        s.tracker.shown(try #require(s.commands().first?.ticket), id: 4)
        s.advance(10 * second)
        let replacement = try #require(s.commands().first?.ticket)
        s.tracker.closed(id: 4)
        s.tracker.shown(replacement, id: 5)
        #expect(s.tracker.shownID(.timer(tid("t"))) == 5)
        #expect(s.commands().isEmpty)
    }

    @Test func aPreAlertThatTheServerLetExpireIsNotShownAgain() throws {
        var s = Scenario()
        try s.start("t", warn: 10 * second)
        s.advance(50 * second)
        s.tracker.shown(try #require(s.commands().first?.ticket), id: 4)
        s.advance(5 * second)
        s.tracker.closed(id: 4)
        #expect(s.commands().isEmpty)
        s.advance(5 * second)
        #expect(s.commands().map(\.shape) == ["show t expired replacing 0"])
    }

    @Test func actions() throws {
        var s = Scenario()
        try s.start("t", warn: 10 * second)
        s.advance(50 * second)
        s.tracker.shown(try #require(s.commands().first?.ticket), id: 4)
        // The pre-alert has no actions; its default action dismisses it.
        for action in NotificationAction.allCases {
            #expect(s.tracker.invoked(id: 4, action: action.key) == nil, "\(action)")
        }
        s.advance(10 * second)
        s.tracker.shown(try #require(s.commands().first?.ticket), id: 4)
        for action in NotificationAction.allCases {
            #expect(s.tracker.invoked(id: 4, action: action.key) == .init(action, tid("t")), "\(action)")
        }
        #expect(s.tracker.invoked(id: 4, action: "reboot") == nil)
        #expect(s.tracker.invoked(id: 4, action: "add-30s") == nil, "keys are the config names")
        #expect(s.tracker.invoked(id: 5, action: NotificationAction.restart.key) == nil, "not an id restd created")
        #expect(s.commands().isEmpty, "asking is not doing: the timer change closes it")

        #expect(s.tracker.invoked(id: 4, action: ActionKey.dismiss) == nil)
        #expect(s.commands().map(\.shape) == ["close 4"])
        #expect(s.timer("t")?.state == .expired)
    }

    @Test func theCommandsComeInTimerOrder() throws {
        var s = Scenario()
        for id in ["c", "a", "b"] { try s.start(id) }
        s.advance(minute)
        #expect(
            s.commands().map(\.shape) == [
                "show a expired replacing 0", "show b expired replacing 0", "show c expired replacing 0",
            ])
    }

    @Test func shorteningToZeroIsARestOverToo() throws {
        var s = Scenario()
        try s.start("t", label: "Plank")
        try s.run { book, now in try book.adjust(tid("t"), deltaUSec: -60_000_000, now: now) }
        let commands = s.commands()
        #expect(commands.map(\.shape) == ["show t expired replacing 0"])
        #expect(commands.first?.alert?.label == "Plank")
    }
}
