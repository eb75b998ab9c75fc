import Foundation
import ProcessHarness
import RestProtocol
import Testing

/// A workout through the bus, with clients nobody here wrote (busctl, gdbus): a plan started
/// from its file, sets with an empty exercise following it, kill -9 in the middle, the end
/// and its summary.
@Suite("Workouts: a plan walked set by set")
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

    final class Session {
        let config: ConfigurationTests.ConfigHome
        let bus: TestBus
        let state: TempDirectory
        var restd: RestdProcess
        var planPath: String { config.directory.path("restd/workouts/push.toml") }

        init() throws {
            config = try ConfigurationTests.ConfigHome(nil)
            _ = try config.directory.write("restd/workouts/push.toml", WorkoutSessionTests.plan)
            bus = try TestBus()
            state = try TempDirectory(prefix: "restd-state")
            restd = try RestdProcess.start(bus: bus, stateHome: state.path, configHome: config.path)
        }

        deinit { restd.terminate() }

        func crashAndRestart() throws {
            _ = restd.kill9()
            restd = try RestdProcess.start(bus: bus, stateHome: state.path, configHome: config.path)
        }

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
        // Inside the superset's round, no rest.
        #expect(session.set() == "ots \"/io/restd/Rest1/timer/default\" 0 \"none\"")
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
