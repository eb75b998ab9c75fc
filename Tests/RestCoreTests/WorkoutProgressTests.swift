import RestCore
import Testing

/// A plan walked set by set: the order, the rests, the next-labels, and moving between blocks.
@Suite struct WorkoutProgressTests {
    /// Squat 3 sets, a superset of Curl (2 sets) and Triceps pushdown (3 sets), Rows 1 set.
    let plan = WorkoutPlan(
        name: "Push day",
        blocks: [
            .init(exercises: [.init(name: "Squat", sets: 3, reps: 5, weightKG: 100)], restUSec: 180 * second),
            .init(
                exercises: [
                    .init(name: "Curl", sets: 2, reps: 12, weightKG: 15), .init(name: "Triceps pushdown", sets: 3),
                ],
                restUSec: 90 * second),
            .init(exercises: [.init(name: "Rows", sets: 1)]),
        ])

    @Test func stepsGoSetBySetWithSupersetsInRoundsAndNoRestAtTheEnd() {
        let steps = plan.steps.map { step in
            "\(plan.blocks[step.block].exercises[step.exercise].name) \(step.set)\(step.restAfter ? " rest" : "")"
        }
        #expect(
            steps == [
                "Squat 1 rest", "Squat 2 rest", "Squat 3 rest",
                "Curl 1", "Triceps pushdown 1 rest", "Curl 2", "Triceps pushdown 2 rest", "Triceps pushdown 3 rest",
                "Rows 1",
            ])
        #expect(plan.setsPlanned == 9)
    }

    @Test func completingSetsGivesTheNextLabelAndFinishesAfterTheLast() throws {
        var progress = WorkoutProgress(plan: plan, startedAtUSec: 0)
        var labels: [String] = []
        var rests: [Bool] = []
        while let done = progress.completeSet() {
            labels.append(done.nextLabel)
            rests.append(done.restAfter)
            if done.finishesWorkout { #expect(progress.isFinished) }
        }
        #expect(
            labels == [
                "Squat 2/3", "Squat 3/3", "Next: Curl", "Next: Triceps pushdown", "Next: Curl",
                "Next: Triceps pushdown",
                "Triceps pushdown 3/3", "Next: Rows (last set)", "",
            ])
        #expect(rests == [true, true, true, false, true, false, true, true, false])
        #expect(progress.setsDone == 9)
        #expect(progress.completeSet() == nil)
    }

    @Test func theLastRestOfAWorkoutEndingWithASupersetSaysLastRound() {
        let plan = WorkoutPlan(
            name: "Arms",
            blocks: [
                .init(exercises: [.init(name: "Curl", sets: 2), .init(name: "Dips", sets: 2)], restUSec: 60 * second)
            ])
        var progress = WorkoutProgress(plan: plan, startedAtUSec: 0)
        var labels: [String] = []
        while let done = progress.completeSet() { labels.append(done.restAfter ? done.nextLabel : "-") }
        #expect(labels == ["-", "Next: Curl (last round)", "-", "-"])
    }

    @Test func nextAndPreviousMoveBetweenBlocksWithoutRecordingSets() {
        var progress = WorkoutProgress(plan: plan, startedAtUSec: 0)
        _ = progress.completeSet()
        let moved1 = progress.skipToNextBlock()
        #expect(moved1)
        #expect(progress.currentExercise?.name == "Curl" && progress.setsDone == 1)
        let moved2 = progress.skipToNextBlock()
        #expect(moved2)
        #expect(progress.currentExercise?.name == "Rows")
        let moved3 = progress.skipToNextBlock()
        #expect(!moved3, "no block after the last")
        let moved4 = progress.backToPreviousBlock()
        #expect(moved4)
        #expect(progress.currentExercise?.name == "Curl" && progress.currentStep?.set == 1)
        let moved5 = progress.backToPreviousBlock()
        #expect(moved5)
        #expect(progress.currentExercise?.name == "Squat" && progress.currentStep?.set == 1)
        let moved6 = progress.backToPreviousBlock()
        #expect(!moved6, "nothing before the first set")
        #expect(progress.setsDone == 1)
    }

    @Test func theSummaryAddsVolumeAndRests() {
        let summary = WorkoutSummary(
            name: "Push day", startedAtUSec: 1_000, endedAtUSec: 3_601_000, setsPlanned: 9,
            sets: [(5, 100), (5, 100), (12, nil), (nil, 20)],
            restsTakenUSec: [180 * second, 200 * second, 90 * second], abandoned: false)
        #expect(summary.volumeKG == 1000)
        #expect(summary.totalRestUSec == 470 * second)
        #expect(summary.medianRestUSec == 180 * second)
        #expect(summary.durationUSec == 3_600_000)
        let none = WorkoutSummary(
            name: "Push day", startedAtUSec: 1_000, endedAtUSec: 1_000, setsPlanned: 9, sets: [],
            restsTakenUSec: [], abandoned: true)
        #expect(none.medianRestUSec == 0)
    }
}
