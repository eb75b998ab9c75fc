import Foundation
import ProcessHarness
import RestClient
import RestProtocol
import Testing

/// A workout through the bus, with clients nobody here wrote (busctl, gdbus): a plan started
/// from its file, sets with an empty exercise following it, kill -9 in the middle, the end
/// and its summary.
@Suite("Workouts: a plan walked set by set", .tags(.calendar))
struct WorkoutSessionTests {
    /// Squat 2 × 5 at 100 kg, 3 min (4 after a failed set); Curl and Triceps pushdown as a
    /// superset of 2 rounds, 90 s after each round; Rows 1 set.
    static let plan = """
        name = "Push day"

        [[exercise]]
        name = "Squat"
        sets = 2
        reps = 5
        weight = 100
        rest = "3m"
        failed_rest = "4m"

        [[exercise]]
        superset = ["Curl", "Triceps pushdown"]
        sets = 2
        reps = 12
        weight = 15
        rest = "90s"

        [[exercise]]
        name = "Rows"
        sets = 1
        """

    /// restd with the plan above in its configuration home; everything of `RunningDaemon` reads
    /// through (`session.config`).
    @dynamicMemberLookup
    final class Session {
        let daemon: RunningDaemon
        var bus: TestBus { daemon.bus }
        var planPath: String { daemon.config.directory.path("restd/workouts/push.toml") }

        init() throws {
            daemon = try RunningDaemon()
            _ = try daemon.config.directory.write("restd/workouts/push.toml", WorkoutSessionTests.plan)
        }

        subscript<Value>(dynamicMember path: KeyPath<RunningDaemon, Value>) -> Value { daemon[keyPath: path] }

        func crashAndRestart() throws { try daemon.crashAndRestart() }

        func call(_ method: String, _ args: String...) -> CommandResult {
            busctl(bus, ["call", RestBus.name, RestBus.workoutPath, RestBus.workoutInterface, method] + args)
        }

        /// busctl's CompleteSet with an empty exercise: `ots "/io/…" 180000000 "plan"`.
        func set(_ options: [String] = ["0"]) -> String {
            let result = busctl(
                bus,
                [
                    "call", RestBus.name, RestBus.managerPath, RestBus.managerInterface, "CompleteSet", "ssa{sv}",
                    "default", "",
                ] + options)
            #expect(result.succeeded, "\(result)")
            return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        func property(_ name: String) -> String {
            busctl(bus, "get-property", RestBus.name, RestBus.workoutPath, RestBus.workoutInterface, name).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// The live activity's fields as gdbus prints them.
        func busLive() -> String {
            gdbus(
                bus, "call", "--dest", RestBus.name, "--object-path", RestBus.livePath, "--method",
                "org.freedesktop.DBus.Properties.Get", RestBus.liveInterface, LiveProperty.fields
            ).stdout
        }

        var timerNext: String {
            busctl(
                bus, "get-property", RestBus.name, RestBus.timerPath(id: "default"), RestBus.timerInterface,
                TimerProperty.next
            ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    @Test(
        "Start from a file, sets follow the plan's rests and next-labels, kill -9 resumes at the same set, End sums up")
    func sessionThroughTheBus() throws {
        let session = try Session()
        #expect(session.property(WorkoutProperty.active) == "b false")
        let started = session.call("Start", "s", session.planPath)
        #expect(started.succeeded, "\(started)")
        #expect(session.property(WorkoutProperty.name) == "s \"Push day\"")
        #expect(session.property(WorkoutProperty.setsPlanned) == "u 7")
        #expect(session.property(WorkoutProperty.exercise) == "s \"Squat\"")
        // One at a time.
        let again = session.call("Start", "s", session.planPath)
        #expect(
            !again.succeeded
                && again.stderr.contains(
                    "the workout \"Push day\" is in progress; end it first with 'restctl workout end'")
        )

        #expect(session.set() == "ots \"/io/restd/Rest1/timer/default\" 180000000 \"plan\"")
        #expect(session.timerNext == "s \"Squat 2/2\"")
        #expect(
            session.set(["1", "failed", "b", "true"])
                == "ots \"/io/restd/Rest1/timer/default\" 240000000 \"plan_failed_rest\"")
        #expect(session.timerNext == "s \"Next: Curl\"")
        // Inside the superset's round, no rest: the rest this set ended has no timer left.
        #expect(session.set() == "ots \"/io/restd/Rest1/timer/default\" 0 \"none\"")
        #expect(session.timerNext == "")
        #expect(session.property(WorkoutProperty.exercise) == "s \"Triceps pushdown\"")
        #expect(session.property(WorkoutProperty.setsDone) == "u 3")

        // The plan file changes and restd is killed: the workout resumes from its own copy.
        _ = try session.config.directory.write("restd/workouts/push.toml", "name = \"Other\"\n")
        try session.crashAndRestart()
        #expect(session.property(WorkoutProperty.name) == "s \"Push day\"")
        #expect(session.property(WorkoutProperty.exercise) == "s \"Triceps pushdown\"")
        #expect(session.property(WorkoutProperty.setIndex) == "u 1")
        #expect(session.property(WorkoutProperty.setsDone) == "u 3")
        #expect(session.set() == "ots \"/io/restd/Rest1/timer/default\" 90000000 \"plan\"")

        // Next skips the superset's second round; the plan has Rows as its last set.
        #expect(session.call("Next").succeeded)
        #expect(session.property(WorkoutProperty.exercise) == "s \"Rows\"")
        let end = session.call("End")
        #expect(end.succeeded, "\(end)")
        #expect(session.property(WorkoutProperty.active) == "b false")
        let summary = gdbus(
            session.bus, "call", "--dest", RestBus.name, "--object-path", RestBus.workoutPath, "--method",
            "org.freedesktop.DBus.Properties.Get", RestBus.workoutInterface, WorkoutProperty.summary
        ).stdout
        #expect(summary.contains("'sets_done': <uint32 4>") && summary.contains("'sets_planned': <uint32 7>"))
        // 5 × 100 twice, 12 × 15 for the Curl; the Triceps pushdown has the block's reps and weight too.
        #expect(summary.contains("'volume_kg': <1360.0>"), "\(summary)")
        #expect(summary.contains("'abandoned': <false>"))
        #expect(!session.call("End").succeeded)
    }

    @Test("workout list with no plans says so, and where plans go, on stderr")
    func noPlans() throws {
        let config = try TempDirectory(prefix: "restd-noplans")
        let result = Command.run(
            [try BuildProducts.executable("restctl"), "workout", "list"], environment: ["XDG_CONFIG_HOME": config.path])
        #expect(result.succeeded && result.stdout.isEmpty, "\(result)")
        #expect(
            result.stderr
                == "restctl: no workout plans in \(config.path)/restd/workouts; a plan is a NAME.toml file there "
                + "('man 5 restd.conf' says what goes in it)\n", "\(result)")
    }

    @Test(
        "restctl alone: workout start NAME, set ×N with one --failed, a skip, kill -9, end, status and the live activity"
    )
    func sessionThroughRestctl() throws {
        let session = try Session()
        func run(_ args: String...) -> CommandResult {
            restctl(session.bus, args, environment: ["XDG_CONFIG_HOME": session.config.path])
        }
        #expect(run("workout", "list").stdout == "push\n")
        let start = run("workout", "start", "push")
        #expect(start.succeeded && start.stdout == "Push day: Squat, set 1 of 2 — 0/7 sets done\n", "\(start)")
        let again = run("workout", "start", "push")
        #expect(
            again.status == 1
                && again.stderr.contains("is in progress; end it first with 'restctl workout end'"), "\(again)")

        func set(_ args: String...) -> String {
            let result = restctl(session.bus, ["set", "--json"] + args)
            #expect(result.succeeded, "\(result)")
            return result.stdout
        }
        #expect(set().contains("\"next\":\"Squat 2/2\""))
        #expect(set("--failed").contains("\"duration_usec\":240000000"))
        // Squat done; the live activity shows the workout's progress without any producer.
        // The broadcast is throttled (MaxRateHz): the snapshot catches up with the second set.
        try waitUntil("the live activity to show 2/7 of Push day", details: { session.busLive() }) {
            let live = session.busLive()
            return live.contains("'workout': <'Push day'>") && live.contains("'progress_done': <int64 2>")
                && live.contains("'progress_total': <int64 7>") && live.contains("'exercise': <'Squat'>")
        }
        // A rest skipped, then the superset's first round.
        #expect(restctl(session.bus, "skip").succeeded)
        // No rest inside the superset's round: set prints where the workout stands.
        #expect(set().contains("\"exercise\":\"Triceps pushdown\""))
        #expect(set().contains("\"next\":\"Next: Curl\""))

        try session.crashAndRestart()
        #expect(run("workout", "status").stdout == "Push day: Curl, set 2 of 2 — 4/7 sets done\n")
        let json = run("workout", "status", "--json").stdout
        #expect(json.contains("\"active\":true") && json.contains("\"sets_done\":4"), "\(json)")
        #expect(run("workout", "next").stdout == "Push day: Rows, set 1 of 1 — 4/7 sets done\n")
        #expect(run("workout", "previous").stdout == "Push day: Curl, set 1 of 2 — 4/7 sets done\n")
        let end = run("workout", "end")
        #expect(end.succeeded && end.stdout.hasPrefix("Push day done: 4/7 sets in "), "\(end)")
        #expect(run("workout", "status").stdout.contains("volume 1360 kg"))
        // The summary outlives restd.
        try session.crashAndRestart()
        #expect(run("workout", "status").stdout.contains("Push day done: 4/7 sets in "))
        let history = run("history", "--workouts")
        #expect(history.succeeded && history.stdout.contains("  Push day done: 4/7 sets in "), "\(history)")
        let historyJSON = run("history", "--workouts", "--json").stdout
        #expect(historyJSON.hasPrefix("[{\"name\":\"Push day\"") && historyJSON.contains("\"volume_kg\":1360"))
        let none = run("workout", "next")
        #expect(none.status == 1 && none.stderr.contains("no workout is in progress"), "\(none)")
    }

    @Test("A plan with problems is refused with file:line: reason, and nothing starts")
    func badPlanRefused() throws {
        let session = try Session()
        let bad = session.call("Start", "s", "name = \"X\"\n[[exercise]]\nname = \"Squat\"\nsets = 0\n")
        #expect(!bad.succeeded && bad.stderr.contains("plan:4: "), "\(bad)")
        let missing = session.call("Start", "s", "/nonexistent/push.toml")
        #expect(
            !missing.succeeded && missing.stderr.contains("/nonexistent/push.toml: cannot be read: No such file"),
            "\(missing)")
        #expect(session.property(WorkoutProperty.active) == "b false")
    }
}

/// What a workout's end looks like on the desktop, through python-dbusmock's notification server.
@Suite("Workouts: the notifications of the last rest and of the end", .tags(.calendar))
struct WorkoutNotificationTests {
    /// Two sets of Squat, then one of Rows, each rest a second long.
    static let plan = """
        name = "Quick day"

        [[exercise]]
        name = "Squat"
        sets = 2
        reps = 5
        weight = 100
        rest = "1s"

        [[exercise]]
        name = "Rows"
        sets = 1
        reps = 10
        weight = 50
        rest = "1s"
        """

    func run(_ daemon: NotifyingDaemon, _ args: String...) -> CommandResult {
        let result = restctl(daemon.bus, args, environment: ["XDG_CONFIG_HOME": daemon.configHome.path])
        #expect(result.succeeded, "\(result)")
        return result
    }

    @Test("The last rest's Rest over names the last set; the last set brings Workout done; the next start closes it")
    func toTheLastSet() throws {
        let daemon = try NotifyingDaemon()
        try daemon.configHome.write("restd/workouts/quick.toml", Self.plan)
        _ = run(daemon, "workout", "start", "quick")
        _ = run(daemon, "set")
        let first = try daemon.calls.waitFor("Notify", count: 1)
        #expect(first[0].summary == "Rest over" && first[0].body == "Squat · Next: Squat 2/2 · 1/3 sets", "\(first)")
        _ = run(daemon, "set")
        let last = try daemon.calls.waitFor("Notify", count: 2)
        #expect(last[1].summary == "Rest over" && last[1].body == "Squat · Next: Rows (last set) · 2/3 sets", "\(last)")
        // No rest follows the last set: set prints the workout's summary.
        #expect(run(daemon, "set").stdout.hasPrefix("Quick day done: 3/3 sets in "))
        let done = try daemon.calls.waitFor("Notify", count: 3)[2]
        #expect(done.summary == "Workout done", "\(done)")
        #expect(done.body?.hasPrefix("Quick day · 3/3 sets · ") == true, "\(done)")
        // 2 × 5 × 100 + 10 × 50; two rests of at least a second.
        #expect(done.body?.contains(" · 1500 kg · rest ") == true, "\(done)")
        #expect(done.hints?["urgency"] == .byte(1) && done.hints?["category"] == .string("x-restd.workout"))
        #expect(done.actions == ["default", "Dismiss"])
        #expect(run(daemon, "workout", "status").stdout.hasPrefix("Quick day done: 3/3 sets in "))
        // The template numbers notifications 1, 2, 3. Each set closed the Rest over before it: the
        // second by starting the next rest, the last by ending the rest with no other after it.
        #expect(try daemon.calls.waitFor("CloseNotification", count: 2).map(\.closedID) == [1, 2])
        #expect(restctl(daemon.bus, "status").status == 1, "no rest after the last set")
        // The last set has no rest after it: SetRows says so as Sets does.
        try expectSetRowsMatchSets(daemon.client, count: 3)

        // The next workout takes "Workout done" down.
        _ = run(daemon, "workout", "start", "quick")
        #expect(try daemon.calls.waitFor("CloseNotification", count: 3).map(\.closedID) == [1, 2, 3])
    }

    /// Every problem, also several in one [[exercise]] table, and one hidden behind another on
    /// the next line: each on its own line, with the key likely meant.
    @Test("a plan with several problems: restctl prints each on its own line, with the key likely meant")
    func everyPlanProblemOnItsLine() throws {
        let daemon = try NotifyingDaemon()
        try daemon.configHome.write(
            "restd/workouts/bad.toml",
            """
            [[exercise]]
            name = "Squat"
            sets = 0
            rest = "90x"
            reps = -1
            weight = "heavy"
            [[exercise]]
            name = "Dip"
            sets = 101
            rset = "2m"
            """)
        let result = restctl(
            daemon.bus, ["workout", "start", "bad"], environment: ["XDG_CONFIG_HOME": daemon.configHome.path])
        let file = daemon.configHome.path("restd/workouts/bad.toml")
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stderr == """
                restctl: \(file):3: sets: 0 is out of range: give 1 to 100
                restctl: \(file):4: rest: the duration "90x" is not understood; give seconds (90), units \
                (1h2m3s, 1m30s, 90s, 2min, 1.5m) or a clock time (1:30, 1:02:03)
                restctl: \(file):5: reps: -1 is out of range: give 1 to 10000
                restctl: \(file):6: weight: expected a number from 0 to 1000 kg, found a string
                restctl: \(file):9: sets: 101 is out of range: give 1 to 100
                restctl: \(file):10: unknown key 'rset' in [[exercise]]; did you mean 'rest'?

                """, "\(result)")
    }

    @Test("workout next and previous: the rest's Next, its Rest over and status follow the workout")
    func nextFollowsTheWorkout() throws {
        let daemon = try NotifyingDaemon()
        try daemon.configHome.write("restd/workouts/quick.toml", Self.plan)
        _ = run(daemon, "workout", "start", "quick")
        _ = run(daemon, "set")
        let first = try daemon.calls.waitFor("Notify", count: 1)[0]
        #expect(first.body == "Squat · Next: Squat 2/2 · 1/3 sets", "\(first)")
        _ = run(daemon, "workout", "next")
        #expect(try daemon.client.timers().first { $0.id == "default" }?.next == "Next: Rows (last set)")
        let moved = try daemon.calls.waitFor("Notify", count: 2)[1]
        #expect(moved.body == "Squat · Next: Rows (last set) · 1/3 sets" && moved.replacesID == 1, "\(moved)")
        #expect(run(daemon, "status").stdout.contains("Next: Rows (last set)"))
        _ = run(daemon, "workout", "previous")
        #expect(try daemon.client.timers().first { $0.id == "default" }?.next == "Next: Squat")
    }

    @Test("a workout ended before its first set ends quietly: no Workout done, no history row, and says so")
    func emptyWorkoutEndsQuietly() throws {
        let daemon = try NotifyingDaemon()
        try daemon.configHome.write("restd/workouts/quick.toml", Self.plan)
        _ = run(daemon, "workout", "start", "quick")
        let end = run(daemon, "workout", "end")
        #expect(end.stdout == "Quick day ended before its first set: nothing was recorded\n", "\(end)")
        #expect(run(daemon, "workout", "status").stdout == "no workout in progress\n")
        #expect(run(daemon, "history", "--workouts").stdout.isEmpty)
        // What is notified first is a later timer's Rest over.
        _ = run(daemon, "start", "1", "--id", "after", "--label", "After")
        let first = try daemon.calls.waitFor("Notify", count: 1)[0]
        #expect(first.summary == "Rest over" && first.body == "After", "\(first)")
    }

    @Test("kill -9 mid-workout: the live activity shows the workout at once; once it ended, nothing of it shows")
    func liveFieldsFollowTheWorkout() throws {
        let daemon = try NotifyingDaemon()
        try daemon.configHome.write("restd/workouts/quick.toml", Self.plan)
        _ = run(daemon, "workout", "start", "quick")
        _ = run(daemon, "set", "--rest", "1h")
        try daemon.restartRestd {}
        // Restored from the store, not waiting for the next set.
        let client = try RestdClient(address: daemon.bus.address)
        let restored = try client.liveFields()
        #expect(
            restored["workout"] == .string("Quick day") && restored["progress_done"] == .int64(1)
                && restored["progress_total"] == .int64(3), "\(restored)")
        _ = run(daemon, "workout", "end")
        #expect(try daemon.calls.waitFor("Notify", count: 1)[0].summary == "Workout done")
        try waitUntil("the workout's fields to leave the live activity") {
            try client.liveFields()["workout"] == nil && client.liveFields()["progress_done"] == nil
        }
        // A later, unrelated rest's Rest over says nothing of the workout ("1/3 sets").
        _ = run(daemon, "start", "1", "--id", "after", "--label", "After")
        let next = try daemon.calls.waitFor("Notify", count: 2)[1]
        #expect(next.summary == "Rest over" && next.body == "After", "\(next)")
    }

    @Test("workout end brings Workout done with the sets done so far; a workout left 13 h ends quietly as abandoned")
    func endedEarlyOrAbandoned() throws {
        let daemon = try NotifyingDaemon()
        try daemon.configHome.write("restd/workouts/quick.toml", Self.plan)
        _ = run(daemon, "workout", "start", "quick")
        _ = run(daemon, "set", "--reps", "3")
        _ = try daemon.calls.waitFor("Notify", count: 1)
        _ = run(daemon, "workout", "end")
        let done = try daemon.calls.waitFor("Notify", count: 2)[1]
        #expect(done.summary == "Workout done" && done.body?.hasPrefix("Quick day · 1/3 sets · ") == true, "\(done)")
        #expect(done.body?.contains(" · 300 kg") == true, "\(done)")

        // Another workout, one set, then left alone for 13 h (abandon_after is 12 h): restd finds
        // it at start-up and ends it at its last change, without a notification.
        _ = run(daemon, "workout", "start", "quick")
        _ = run(daemon, "set", "--rest", "1h")
        try daemon.restartRestd { try Self.moveLastChange(back: 13 * 3_600_000_000, in: daemon.state) }
        try daemon.restd.waitForLog(containing: "was left untouched; ended as abandoned")
        let status = run(daemon, "workout", "status")
        #expect(status.stdout.hasPrefix("Quick day abandoned: 1/3 sets in 0 s, volume 500 kg"), "\(status)")
        // What is notified next is a timer's Rest over: the abandoned workout showed nothing.
        _ = run(daemon, "start", "1", "--id", "after", "--label", "After")
        let next = try daemon.calls.waitFor("Notify", count: 3)[2]
        #expect(next.summary == "Rest over" && next.body == "After", "\(next)")
    }

    /// Moves the last change of the workout in progress back in restd's state file (restd must
    /// not be running).
    static func moveLastChange(back usec: UInt64, in state: TempDirectory) throws {
        let changed = try StateFile(in: state).execute(
            "UPDATE workout SET touched_at_usec = touched_at_usec - ?", .integer(Int64(usec)))
        guard changed == 1 else { throw HarnessError.failed("no workout in progress in the state file") }
    }
}
