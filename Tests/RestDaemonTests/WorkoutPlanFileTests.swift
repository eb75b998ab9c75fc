import RestCore
import Testing

@testable import RestDaemon

/// Workout plans from TOML: what is read, and every refusal as file:line: reason.
@Suite("Workout plan files")
struct WorkoutPlanFileTests {
    private func problems(_ text: String) -> [String] {
        do {
            _ = try WorkoutPlanFile.parse(text, file: "push.toml")
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test func readsExercisesAndSupersets() throws {
        let plan = try WorkoutPlanFile.parse(
            """
            name = "Push day"

            [[exercise]]
            name = " Squat "
            sets = 5
            reps = 5
            weight = 102.5
            rest = "3m"
            failed_rest = "4m"

            [[exercise]]
            superset = ["Curl", "Triceps pushdown"]
            sets = 3
            reps = 12
            rest = "1:30"
            """, file: "push.toml")
        #expect(plan.name == "Push day")
        #expect(plan.blocks.count == 2)
        #expect(
            plan.blocks[0]
                == WorkoutPlan.Block(
                    exercises: [.init(name: "Squat", sets: 5, reps: 5, weightKG: 102.5)],
                    restUSec: 180_000_000, failedRestUSec: 240_000_000))
        #expect(plan.blocks[1].exercises.map(\.name) == ["Curl", "Triceps pushdown"])
        #expect(plan.blocks[1].isSuperset && plan.blocks[1].restUSec == 90_000_000)
        #expect(plan.setsPlanned == 11)
    }

    @Test("resting until recovered for the whole plan and for one [[exercise]], refused with its line when wrong")
    func recoveryKeys() throws {
        let plan = try WorkoutPlanFile.parse(
            """
            until_recovered = true
            recovery_target = "-25bpm"

            [[exercise]]
            name = "Squat"
            sets = 5
            recovery_min = "90s"
            recovery_hold = 5

            [[exercise]]
            name = "Curl"
            sets = 3
            until_recovered = false
            """, file: "push.toml")
        #expect(plan.recovery == RecoverySettings(untilRecovered: true, target: .drop(25)))
        #expect(plan.blocks[0].recovery == RecoverySettings(minimumUSec: 90_000_000, holdUSec: 5_000_000))
        #expect(plan.blocks[1].recovery == RecoverySettings(untilRecovered: false))
        #expect(
            problems("recovery_target = \"fast\"\n[[exercise]]\nname = \"Squat\"\nsets = 1\nrecovery_hold = \"1h\"")
                == [
                    "push.toml:1: recovery_target: recovery target \"fast\" is not one of \"120bpm\", \"60%max\", "
                        + "\"60%reserve\" or \"-30bpm\"",
                    "push.toml:5: recovery_hold: 1 h is out of range: give 1 s to 5 min",
                ])
    }

    @Test func theFileNameIsTheDefaultName() throws {
        let plan = try WorkoutPlanFile.parse(
            "[[exercise]]\nname = \"Rows\"\nsets = 3\n", file: "/home/u/.config/restd/workouts/pull-day.toml")
        #expect(plan.name == "pull-day")
    }

    @Test(arguments: [
        ("name = \"x\"\n", "push.toml: the plan has no exercises; add [[exercise]] tables with name and sets"),
        (
            "[[exercise]]\nname = \"Squat\"\nsets = 0\n",
            "push.toml:3: sets: 0 is out of range: give 1 to 100"
        ),
        (
            "[[exercise]]\nname = \"Squat\"\nsets = 101\n",
            "push.toml:3: sets: 101 is out of range: give 1 to 100"
        ),
        ("[[exercise]]\nname = \"Squat\"\n", "push.toml:1: Squat needs sets (1 to 100)"),
        (
            "[[exercise]]\nname = \"Squat\"\nsets = 3\nrest = \"25h\"\n",
            "push.toml:4: rest: 25 h is out of range: give 1 s to 24 h"
        ),
        (
            "[[exercise]]\nname = \"Squat\"\nsets = 3\ncolour = 1\n",
            "push.toml:4: unknown key 'colour' in [[exercise]]; the keys are name, superset, sets, reps, weight, rest, failed_rest, "
                + "sound, until_recovered, recovery_target, recovery_min, recovery_hold"
        ),
        (
            "title = \"x\"\n",
            "push.toml:1: unknown key 'title'; a plan has name, [[exercise]] tables and until_recovered, "
                + "recovery_target, recovery_min, recovery_hold"
        ),
        (
            "[[exercise]]\nsuperset = [\"Curl\"]\nsets = 3\n",
            "push.toml:2: superset must list two or more exercises, as in [\"Curl\", \"Triceps pushdown\"]"
        ),
        (
            "[[exercise]]\nname = \"\"\nsets = 3\n",
            "push.toml:2: name \"\" must be 1 to 64 characters without control characters"
        ),
        (
            "[[exercise]]\nname = \"Squat\"\nsets = 3\nweight = -5\n",
            "push.toml:4: weight: -5 is out of range: give 0 to 1000 kg"
        ),
        ("name = [\n", "push.toml:1: not valid TOML: the list is not closed with ]"),
    ])
    func refuses(_ text: String, _ expected: String) {
        #expect(problems(text) == [expected], "\(text)")
    }

    @Test func refusesMoreThan100Exercises() {
        let text = (0..<101).map { "[[exercise]]\nname = \"E\($0)\"\nsets = 1\n" }.joined()
        #expect(problems(text) == ["push.toml: the plan has more than 100 exercises"])
    }

    /// Every problem of the file, each on its own line at its key, with the key likely meant.
    @Test func tellsEveryProblemWithDidYouMean() {
        let text = """
            name = "Push"
            nmae = "Pull"
            [[exercise]]
            name = "Squat"
            sets = 3
            colour = "red"
            rset = "2m"
            [[exercise]]
            superset = ["Curl", "Dip"]
            sets = 0
            """
        let keys =
            "the keys are name, superset, sets, reps, weight, rest, failed_rest, sound, until_recovered, recovery_target, "
            + "recovery_min, recovery_hold"
        #expect(
            problems(text) == [
                "push.toml:2: unknown key 'nmae'; did you mean 'name'?",
                "push.toml:6: unknown key 'colour' in [[exercise]]; \(keys)",
                "push.toml:7: unknown key 'rset' in [[exercise]]; did you mean 'rest'?",
                "push.toml:10: sets: 0 is out of range: give 1 to 100",
            ])
    }

    /// Every problem of one [[exercise]] table, not only its first: each value is read on its own.
    @Test func tellsEveryProblemOfOneTable() {
        let text = """
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
            """
        #expect(
            problems(text) == [
                "push.toml:3: sets: 0 is out of range: give 1 to 100",
                "push.toml:4: rest: the duration \"90x\" is not understood; give seconds (90), units (1h2m3s, "
                    + "1m30s, 90s, 2min, 1.5m) or a clock time (1:30, 1:02:03)",
                "push.toml:5: reps: -1 is out of range: give 1 to 10000",
                "push.toml:6: weight: expected a number from 0 to 1000 kg, found a string",
                "push.toml:9: sets: 101 is out of range: give 1 to 100",
                "push.toml:10: unknown key 'rset' in [[exercise]]; did you mean 'rest'?",
            ])
    }

    /// `rets` is one edit from `sets` (a letter changed) and from `rest` (two letters swapped):
    /// where `sets` is set already, `rest` was meant.
    @Test func suggestsAKeyNotYetSet() {
        let text = """
            [[exercise]]
            name = "Squat"
            sets = 3
            rets = "5s"
            """
        #expect(problems(text) == ["push.toml:4: unknown key 'rets' in [[exercise]]; did you mean 'rest'?"])
    }

    @Test func refusesAFileOver256KiB() {
        let text = "# " + String(repeating: "x", count: 256 * 1024) + "\n"
        #expect(problems(text) == ["push.toml: the plan is 262147 bytes; at most 256 KiB are allowed"])
    }
}
