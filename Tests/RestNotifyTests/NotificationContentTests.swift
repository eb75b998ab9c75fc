import RestCore
import RestNotify
import Testing

let second: USec = 1_000_000
let minute: USec = 60 * second
let hour: USec = 60 * minute
/// A wall-clock instant in November 2023.
let deadline: USec = 1_700_000_000 * second

func tid(_ text: String) -> TimerID {
    do {
        return try TimerID(parsing: text)
    } catch {
        fatalError("test id \(text) is invalid: \(error)")
    }
}

let everything = ServerCapabilities(actions: true, bodyMarkup: true)
let nothing = ServerCapabilities(actions: false, bodyMarkup: false)

@Suite struct NotificationContentTests {
    let squat = Alert(.expired(deadlineUSec: deadline), timerID: tid("squat"), label: "Squat", next: "Bench press")

    /// The record the set before the rest beat: a line of its own under the body.
    @Test func restOverSaysTheRecordOfTheSetBefore() {
        let line = "record: Squat 110 kg × 3, estimated 1RM 121 kg (was 120)"
        let running = RestTimer(
            id: tid("default"), label: "Squat", next: "", notify: true, baseDurationUSec: 3 * minute,
            state: .running, durationUSec: 3 * minute, startedAtUSec: deadline - 3 * minute, endsAtUSec: deadline,
            remainingUSec: 3 * minute, expiredAtUSec: 0, updatedAtUSec: deadline - 3 * minute, deadlineBoottime: 0)
        var over = running
        over.state = .expired
        over.expiredAtUSec = deadline
        var tracker = NotificationTracker()
        tracker.noteRecord(line, forRestOn: tid("default"))
        tracker.record([.added(running)])
        tracker.record([
            .changed(from: running, to: over),
            .expired(id: tid("default"), deadlineUSec: deadline, firedUSec: deadline),
        ])
        let alert = tracker.wanted(.timer(tid("default")))
        #expect(alert?.record == line)
        #expect(alert.map { NotificationContent.body(of: $0, messages: .english, now: deadline) } == "Squat\n" + line)
        // The next set beat none: its rest says nothing of records.
        tracker.noteRecord(nil, forRestOn: tid("default"))
        tracker.record([.changed(from: over, to: running)])
        tracker.record([
            .changed(from: running, to: over),
            .expired(id: tid("default"), deadlineUSec: deadline, firedUSec: deadline),
        ])
        #expect(tracker.wanted(.timer(tid("default")))?.record == nil)
    }

    @Test func restOverWithEverythingTheServerCanDo() {
        let request = NotificationContent.request(
            for: squat, replacing: 0, capabilities: everything, messages: .english, now: deadline + 2_000)
        #expect(
            request
                == NotificationRequest(
                    appName: "restd", replacesID: 0, icon: "appointment-soon", summary: "Rest over",
                    body: "Squat · Next: Bench press",
                    actions: ["default", "Dismiss", "add_30s", "+30 s", "restart", "Again"],
                    hints: .init(
                        urgency: .critical, category: "x-restd.timer", soundName: nil, suppressSound: true,
                        desktopEntry: "restd"),
                    expireTimeoutMS: 0))
        #expect(NotificationRequest.Urgency.critical.rawValue == 2)
    }

    @Test func theStyleSetsUrgencyAndButtonsInItsOrder() {
        let style = NotificationStyle(urgency: .normal, actions: [.cancel, .add1m, .restart, .add30s])
        let request = NotificationContent.request(
            for: squat, replacing: 0, capabilities: everything, messages: .english, style: style, now: deadline)
        #expect(request.hints.urgency == .normal)
        #expect(
            request.actions == [
                "default", "Dismiss", "cancel", "Cancel", "add_1m", "+1 min", "restart", "Again",
                "add_30s", "+30 s",
            ])
        #expect(request.expireTimeoutMS == -1, "only a critical one is kept until dismissed")
        #expect(request.hints.soundName == nil && request.hints.suppressSound, "restd rings the alarm itself")

        let german = NotificationContent.request(
            for: squat, replacing: 0, capabilities: everything, messages: .german, style: style, now: deadline)
        #expect(
            german.actions == [
                "default", "Schließen", "cancel", "Abbrechen", "add_1m", "+1 Min.", "restart", "Nochmal",
                "add_30s", "+30 s",
            ])

        let low = NotificationContent.request(
            for: squat, replacing: 0, capabilities: everything, messages: .english,
            style: NotificationStyle(urgency: .low, actions: []), now: deadline)
        #expect(low.hints.urgency == .low)
        #expect(low.actions == ["default", "Dismiss"], "the default action dismisses, whatever the buttons")
    }

    @Test func thePreAlertIgnoresTheStyle() {
        let warning = Alert(.warning(deadlineUSec: deadline), timerID: tid("squat"))
        let style = NotificationStyle(urgency: .critical, actions: [.cancel, .add1m])
        let request = NotificationContent.request(
            for: warning, replacing: 0, capabilities: everything, messages: .english, style: style,
            now: deadline - 10 * second)
        #expect(request.hints.urgency == .low)
        #expect(request.actions.isEmpty)
    }

    @Test func theStandardStyleIsCriticalWithAddThirtySecondsAndAgain() {
        #expect(NotificationStyle.standard == NotificationStyle(urgency: .critical, actions: [.add30s, .restart]))
        #expect(NotificationAction.add30s.deltaUSec == 30_000_000 && NotificationAction.add1m.deltaUSec == 60_000_000)
        #expect(NotificationAction.restart.deltaUSec == nil && NotificationAction.cancel.deltaUSec == nil)
        for action in NotificationAction.allCases {
            #expect(NotificationAction(key: action.key) == action)
        }
        #expect(NotificationAction(key: ActionKey.dismiss) == nil)
    }

    @Test func noActionsUnlessAdvertised() {
        let request = NotificationContent.request(
            for: squat, replacing: 7, capabilities: ServerCapabilities(actions: false, bodyMarkup: true),
            messages: .english, now: deadline)
        #expect(request.actions.isEmpty)
        #expect(request.replacesID == 7)
        #expect(request.hints.urgency == .critical)
    }

    @Test func userTextIsEscapedOnlyForServersThatParseMarkup() {
        let nasty = Alert(.expired(deadlineUSec: deadline), timerID: tid("x"), label: "<b>x</b> & y", next: "a<i>&amp;")
        let markup = NotificationContent.request(
            for: nasty, replacing: 0, capabilities: everything, messages: .english, now: deadline)
        #expect(markup.body == "&lt;b&gt;x&lt;/b&gt; &amp; y · Next: a&lt;i&gt;&amp;amp;")
        let plain = NotificationContent.request(
            for: nasty, replacing: 0, capabilities: nothing, messages: .english, now: deadline)
        #expect(plain.body == "<b>x</b> & y · Next: a<i>&amp;")
        // The summary is plain text by the specification, and ours never holds user text.
        #expect(markup.summary == "Rest over" && plain.summary == "Rest over")
    }

    @Test func capabilitiesFromTheAdvertisedList() {
        #expect(ServerCapabilities(advertised: ["body", "body-markup", "actions"]) == everything)
        #expect(
            ServerCapabilities(advertised: ["body", "body-markup", "actions", "sound"])
                == ServerCapabilities(actions: true, bodyMarkup: true, sound: true))
        #expect(
            ServerCapabilities(advertised: ["sound"])
                == ServerCapabilities(actions: false, bodyMarkup: false, sound: true))
        #expect(ServerCapabilities(advertised: ["body", "icon-static"]) == nothing)
        #expect(ServerCapabilities(advertised: ["actions"]) == ServerCapabilities(actions: true, bodyMarkup: false))
        #expect(ServerCapabilities(advertised: []) == nothing)
    }

    @Test func theBodyNamesWhatIsSet() {
        func body(_ id: String, _ label: String, _ next: String) -> String {
            NotificationContent.body(
                of: Alert(.expired(deadlineUSec: deadline), timerID: tid(id), label: label, next: next),
                messages: .english, now: deadline)
        }
        #expect(body("squat", "Squat", "Bench press") == "Squat · Next: Bench press")
        #expect(body("squat", "Squat", "") == "Squat")
        #expect(body("squat", "", "Bench press") == "squat · Next: Bench press")
        #expect(body("", "", "Bench press") == "Next: Bench press")
        #expect(body("", "", "") == "")
        // The live activity's progress comes last.
        #expect(
            NotificationContent.body(
                of: Alert(
                    .expired(deadlineUSec: deadline), timerID: tid("default"), label: "Squat", next: "Squat 4/5",
                    progress: LiveProgress(done: 3, total: 15)), messages: .german, now: deadline)
                == "Squat · Weiter mit: Squat 4/5 · 3/15 Sätze")
        // A workout's "Next: Curl" is not said twice, in any language.
        #expect(body("default", "Squat", "Next: Curl") == "Squat · Next: Curl")
        #expect(
            NotificationContent.body(
                of: Alert(.expired(deadlineUSec: deadline), timerID: tid("default"), next: "Next: Curl (last set)"),
                messages: .german, now: deadline) == "Weiter mit: Curl (letzter Satz)")
    }

    @Test("a rest that ended on recovery says how long it took and the heart rate then")
    func recoveredRest() throws {
        var timer = RestTimer(
            id: tid("default"), label: "Squat", next: "Bench press", notify: true, baseDurationUSec: 3 * minute,
            state: .expired, durationUSec: 3 * minute, startedAtUSec: deadline - 72 * second, endsAtUSec: 0,
            remainingUSec: 0, expiredAtUSec: deadline, updatedAtUSec: deadline, deadlineBoottime: 0,
            endReason: .recovered, recoveredBPM: 118)
        let recovered = Alert(.expired(deadlineUSec: deadline), timer: timer)
        #expect(
            NotificationContent.body(of: recovered, messages: .english, now: deadline)
                == "Squat · Recovered in 1:12 — ♥118 · Next: Bench press")
        #expect(
            NotificationContent.body(of: recovered, messages: .german, now: deadline)
                == "Squat · Erholt in 1:12 — ♥118 · Weiter mit: Bench press")
        #expect(
            NotificationContent.request(
                for: recovered, replacing: 0, capabilities: everything, messages: .english, now: deadline
            ).summary == "Rest over")
        timer.endReason = .sensorLost
        #expect(
            NotificationContent.body(
                of: Alert(.expired(deadlineUSec: deadline), timer: timer), messages: .english, now: deadline)
                == "Squat · heart rate lost: full rest · Next: Bench press")
        // A plain rest, or one skipped or run out as planned, says nothing of recovery.
        for reason in [EndReason.planned, .user] {
            timer.endReason = reason
            #expect(Alert(.expired(deadlineUSec: deadline), timer: timer).recovery == nil)
        }
        #expect(Messages.english.clock(seconds: 3_905) == "1:05:05")
    }

    @Test func germanWording() {
        let alert = Alert(
            .expired(deadlineUSec: deadline), timerID: tid("squat"), label: "Kniebeuge", next: "Bankdrücken")
        let request = NotificationContent.request(
            for: alert, replacing: 0, capabilities: everything, messages: .german,
            now: deadline + 3 * minute + 20 * second)
        #expect(request.summary == "Pause beendet")
        #expect(request.body == "Kniebeuge · vor 3 Min. beendet · Weiter mit: Bankdrücken")
        #expect(request.actions == ["default", "Schließen", "add_30s", "+30 s", "restart", "Nochmal"])
        let warning = NotificationContent.request(
            for: Alert(.warning(deadlineUSec: deadline), timerID: tid("squat")), replacing: 0,
            capabilities: everything, messages: .german, now: deadline - 10 * second)
        #expect(warning.summary == "Noch 10 s")
        #expect(warning.body == "squat")
    }

    @Test func thePreAlertIsQuietAndSaysWhatIsLeft() {
        let warning = Alert(
            .warning(deadlineUSec: deadline), timerID: tid("squat"), label: "Squat", next: "Bench press")
        let request = NotificationContent.request(
            for: warning, replacing: 0, capabilities: everything, messages: .english, now: deadline - 10 * second)
        #expect(
            request
                == NotificationRequest(
                    appName: "restd", replacesID: 0, icon: "appointment-soon", summary: "10 s left",
                    body: "Squat · Next: Bench press", actions: [],
                    hints: .init(urgency: .low, category: "x-restd.timer", soundName: nil, desktopEntry: "restd"),
                    expireTimeoutMS: -1))
        // Rounded up to the second: 9.5 s left still reads "10 s left".
        func summary(left: USec) -> String {
            NotificationContent.request(
                for: warning, replacing: 0, capabilities: nothing, messages: .english,
                now: deadline - left
            ).summary
        }
        #expect(summary(left: 9_500_000) == "10 s left")
        #expect(summary(left: 10 * second + 1) == "11 s left")
        #expect(summary(left: 90 * second) == "1 min 30 s left")
    }

    @Test(
        arguments: [
            (USec(0), nil), (4_999_999, nil), (5 * second, "ended 5 s ago"), (42 * second + 900_000, "ended 42 s ago"),
            (59 * second, "ended 59 s ago"), (60 * second, "ended 1 min ago"),
            (3 * minute + 59 * second, "ended 3 min ago"),
            (59 * minute + 59 * second, "ended 59 min ago"), (hour, "ended 1 h ago"),
        ] as [(USec, String?)])
    func lateWording(_ late: USec, _ expected: String?) {
        #expect(
            NotificationContent.lateNote(deadlineUSec: deadline, now: deadline + late, messages: .english) == expected)
    }

    @Test func aLateRestSaysSoInTheBody() {
        let request = NotificationContent.request(
            for: squat, replacing: 0, capabilities: everything, messages: .english,
            now: deadline + 3 * minute + 5 * second)
        #expect(request.body == "Squat · ended 3 min ago · Next: Bench press")
        // A clock set back makes nothing "late".
        #expect(NotificationContent.lateNote(deadlineUSec: deadline, now: deadline - hour, messages: .english) == nil)
    }

    @Test func staleAlerts() {
        #expect(!squat.isStale(now: deadline - minute))
        #expect(!squat.isStale(now: deadline + hour))
        #expect(squat.isStale(now: deadline + hour + 1))
        let warning = Alert(.warning(deadlineUSec: deadline), timerID: tid("squat"))
        #expect(!warning.isStale(now: deadline - 1))
        #expect(warning.isStale(now: deadline))
    }
}
