import RestCore
import RestNotify
import Testing

/// "Workout done": what it says, and how the tracker keeps it apart from the timers' alerts.
@Suite struct WorkoutDoneTests {
    /// 52 min 30 s, 15 of 15 sets, 4250 kg, 21 min 10 s of rest.
    let summary = WorkoutSummary(
        name: "Push day", startedAtUSec: deadline, endedAtUSec: deadline + 52 * minute + 30 * second, setsDone: 15,
        setsPlanned: 15, volumeKG: 4250, totalRestUSec: 21 * minute + 10 * second, medianRestUSec: 90 * second,
        abandoned: false)

    @Test func itSaysHowTheWorkoutWent() {
        let request = NotificationContent.request(
            for: Alert(workoutDone: summary), replacing: 0, capabilities: everything, messages: .english,
            now: summary.endedAtUSec)
        #expect(
            request
                == NotificationRequest(
                    appName: "restd", replacesID: 0, icon: "appointment-soon", summary: "Workout done",
                    body: "Push day · 15/15 sets · 52 min · 4250 kg · rest 21 min",
                    actions: ["default", "Dismiss"],
                    hints: .init(
                        urgency: .normal, category: "x-restd.workout", soundName: "complete", desktopEntry: "restd"),
                    expireTimeoutMS: -1))
        // Whatever the style of "Rest over": it has no buttons that act on a timer.
        let styled = NotificationContent.request(
            for: Alert(workoutDone: summary), replacing: 0, capabilities: everything, messages: .english,
            style: NotificationStyle(urgency: .critical, actions: [.cancel]), now: summary.endedAtUSec)
        #expect(styled.actions == ["default", "Dismiss"] && styled.hints.urgency == .normal)
        // In pounds, the volume is: 4250 kg is 9369.6 lb.
        let pounds = NotificationContent.request(
            for: Alert(workoutDone: summary), replacing: 0, capabilities: everything, messages: .english,
            weightUnit: .lb, now: summary.endedAtUSec)
        #expect(pounds.body == "Push day · 15/15 sets · 52 min · 9369.6 lb · rest 21 min")
    }

    @Test func inGermanWithoutVolumeOrRestWhenThereWasNone() {
        var short = summary
        short.volumeKG = 0
        short.totalRestUSec = 0
        short.setsDone = 1
        short.endedAtUSec = short.startedAtUSec + 42 * second
        #expect(
            NotificationContent.body(of: Alert(workoutDone: short), messages: .english, now: 0)
                == "Push day · 1/15 sets · 42 s")
        var fractional = summary
        fractional.volumeKG = 1362.5
        #expect(
            NotificationContent.body(of: Alert(workoutDone: fractional), messages: .german, now: 0)
                == "Push day · 15/15 Sätze · 52 Min. · 1362,5 kg · Pause 21 Min.")
        #expect(
            NotificationContent.request(
                for: Alert(workoutDone: summary), replacing: 0, capabilities: nothing, messages: .german, now: 0
            ).summary == "Training beendet")
    }

    @Test func theNameIsEscapedWhereTheServerParsesMarkup() {
        var tagged = summary
        tagged.name = "<b>Legs</b> & co"
        let request = NotificationContent.request(
            for: Alert(workoutDone: tagged), replacing: 0, capabilities: everything, messages: .english, now: 0)
        #expect(request.body.hasPrefix("&lt;b&gt;Legs&lt;/b&gt; &amp; co · "))
    }

    @Test func theTrackerShowsItBesideTheRestAndTheNextWorkoutTakesItDown() throws {
        var s = Scenario()
        try s.start("default")
        s.advance(minute)
        let rest = try #require(s.commands().first?.ticket)
        var ended = summary
        ended.endedAtUSec = s.now.realtime
        s.tracker.recordWorkout(inProgress: false, ended: ended)
        let commands = s.commands()
        #expect(commands.map(\.shape) == ["show workout workout done replacing 0"])
        #expect(commands.first?.alert == Alert(workoutDone: ended))
        // Both answers come back; each has its own notification.
        s.tracker.shown(rest, id: 1)
        s.tracker.shown(try #require(commands.first?.ticket), id: 2)
        #expect(s.commands().isEmpty)
        #expect(s.tracker.shownID(.timer(tid("default"))) == 1 && s.tracker.shownID(.workout) == 2)
        // Buttons never act through "Workout done".
        #expect(s.tracker.invoked(id: 2, action: "add_30s") == nil)
        // Moving within the workout, or a set, changes nothing; the next workout's start closes it.
        s.tracker.recordWorkout(inProgress: true, ended: nil)
        #expect(s.commands().map(\.shape) == ["close 2"])
        s.tracker.recordWorkout(inProgress: true, ended: nil)
        #expect(s.commands().isEmpty && s.tracker.shownID(.timer(tid("default"))) == 1)
    }

    @Test func aRestOverSaysTheProgressOfItsMoment() throws {
        var s = Scenario()
        try s.start("default", warn: 10 * second)
        s.now.realtime += 50 * second
        s.now.boottime += 50 * second
        let warning = s.book.due(now: s.now)
        s.book.apply(warning)
        s.tracker.record(warning, progress: LiveProgress(done: 3, total: 15))
        #expect(s.commands().first?.alert?.progress == LiveProgress(done: 3, total: 15))
        s.now.realtime += 10 * second
        s.now.boottime += 10 * second
        let expiry = s.book.due(now: s.now)
        s.book.apply(expiry)
        s.tracker.record(expiry, progress: nil)
        #expect(s.tracker.wanted(.timer(tid("default")))?.progress == nil, "as the activity is when it ends")
    }

    @Test func anAbandonedWorkoutEndsQuietly() {
        var s = Scenario()
        var abandoned = summary
        abandoned.abandoned = true
        s.tracker.recordWorkout(inProgress: false, ended: abandoned)
        #expect(s.commands().isEmpty && s.tracker.wanted(.workout) == nil)
    }

    @Test func dismissedServerChangesAndAnHourLater() throws {
        var s = Scenario()
        var ended = summary
        ended.endedAtUSec = s.now.realtime
        s.tracker.recordWorkout(inProgress: false, ended: ended)
        s.tracker.shown(try #require(s.commands().first?.ticket), id: 3)
        // A new server: shown again there.
        s.tracker.serverChanged()
        let again = s.commands()
        #expect(again.map(\.shape) == ["show workout workout done replacing 0"])
        s.tracker.shown(try #require(again.first?.ticket), id: 7)
        // An hour later it is old news, and goes.
        s.now.realtime += hour + 1
        #expect(s.commands().map(\.shape) == ["close 7"])
        // Clicked away: not shown again, even on the next server.
        s.now.realtime = ended.endedAtUSec
        s.tracker.recordWorkout(inProgress: false, ended: ended)
        s.tracker.shown(try #require(s.commands().first?.ticket), id: 8)
        #expect(s.tracker.invoked(id: 8, action: "default") == nil)
        #expect(s.commands().map(\.shape) == ["close 8"])
        s.tracker.serverChanged()
        #expect(s.commands().isEmpty)
    }
}
