import Foundation

/// Five weekly training sessions, the last one ending just now, written straight into restd's
/// state file (restd stopped): sets of three exercises with the rests after them, followed rests
/// with their recovery, and two workouts. Every time is computed from `now`, so the history is
/// as old on any day; given a restd and restctl whose zone puts `now` near noon
/// (`LocalTime.zoneAtNoon`), each session falls on its own day and in its own local week.
struct SeededHistory {
    struct SetRow {
        var id: Int
        var atUSec: UInt64
        var exercise: String
        var reps: Int?
        var weightKg: Double?
        var rest: RestRow
    }

    struct RestRow {
        var plannedUSec: UInt64
        var takenUSec: UInt64
        var outcome: String
        var source: String
        /// For a rest followed for recovery: HRR60 (bpm) and the time to the target.
        var recovery: (hrr60: Double, timeToTargetUSec: UInt64)?
    }

    struct Workout {
        var name: String
        var startedAtUSec: UInt64
        var endedAtUSec: UInt64
        var sets: Int
        var volumeKg: Double
        /// Of the rests that ended during it (all but the last set's).
        var totalRestUSec: UInt64
        var medianRestUSec: UInt64
    }

    /// The configuration restd runs with: Squat and Bench press in categories, Pull-up in none.
    static let config = """
        [categories]
        legs = "3m"
        push = "2m"
        [exercises."Squat"]
        category = "legs"
        [exercises."Bench press"]
        category = "push"
        """

    static let sessions = 5
    let sets: [SetRow]
    let workouts: [Workout]
    /// The heart rate kept of the last session's followed rests (Squat's), by set id: one value
    /// a second, 0 where the strap said nothing.
    let heartRates: [(setID: Int, bpm: [UInt8])]

    init(now: UInt64) {
        let minute: UInt64 = 60_000_000
        let week: UInt64 = 7 * 86_400_000_000
        var sets: [SetRow] = []
        var workouts: [Workout] = []
        for session in 0..<Self.sessions {
            // Oldest first: session 0 four weeks ago, the last one today; 8 sets, 4 minutes apart,
            // the last one a minute ago.
            let weeksAgo = UInt64(Self.sessions - 1 - session)
            let start = now - weeksAgo * week - 30 * minute
            let progress = Double(session)
            var plan: [(exercise: String, reps: Int?, kg: Double?, rest: RestRow)] = []
            for index in 0..<3 {
                // Squat: 5 reps heavier each week, but session 2 is a light day of 12 reps (no
                // one-rep max is estimated from it). Its rests are followed for recovery.
                let light = session == 2
                plan.append(
                    (
                        "Squat", light ? 12 : 5, light ? 80 : 100 + 2.5 * progress,
                        RestRow(
                            plannedUSec: 180_000_000, takenUSec: UInt64(170 + 10 * index) * 1_000_000,
                            outcome: "completed", source: "exercise",
                            recovery: (
                                20 + 2 * progress + Double(index), UInt64(80 - 5 * session + 3 * index) * 1_000_000
                            ))
                    ))
            }
            for index in 0..<3 {
                // Bench press: the middle set's rest skipped.
                plan.append(
                    (
                        "Bench press", 8, 60 + 2.5 * progress,
                        RestRow(
                            plannedUSec: 120_000_000, takenUSec: index == 1 ? 60_000_000 : 135_000_000,
                            outcome: index == 1 ? "skipped" : "completed", source: "last_used", recovery: nil)
                    ))
            }
            for index in 0..<2 {
                // Pull-up: reps only, no weight, so no volume.
                plan.append(
                    (
                        "Pull-up", 6 + session, nil,
                        RestRow(
                            plannedUSec: 90_000_000, takenUSec: 95_000_000,
                            outcome: index == 1 ? "cancelled" : "completed", source: "default", recovery: nil)
                    ))
            }
            var volume = 0.0
            for (index, item) in plan.enumerated() {
                sets.append(
                    SetRow(
                        id: sets.count + 1, atUSec: start + UInt64(index) * 4 * minute, exercise: item.exercise,
                        reps: item.reps, weightKg: item.kg, rest: item.rest))
                if let reps = item.reps, let kg = item.kg { volume += Double(reps) * kg }
            }
            // The last two sessions were workouts: from a minute before the first set to the last.
            if session >= Self.sessions - 2 {
                let rests = plan.dropLast().map(\.rest.takenUSec).sorted()
                workouts.append(
                    Workout(
                        name: "Full body", startedAtUSec: start - minute, endedAtUSec: sets[sets.count - 1].atUSec,
                        sets: plan.count, volumeKg: volume, totalRestUSec: rests.reduce(0, +),
                        medianRestUSec: rests[rests.count / 2]))
            }
        }
        self.sets = sets
        self.workouts = workouts
        // Down from 150 to the target of 120 and below, with a second of no heart rate.
        heartRates = sets.filter { $0.rest.recovery != nil && $0.atUSec > now - week }.enumerated().map {
            index, set in
            let seconds = Int(set.rest.takenUSec / 1_000_000) / 2
            let bpm = (0...seconds).map { second -> UInt8 in
                second == 20 + index ? 0 : UInt8(max(150 - second * (2 + index) / 3, 95))
            }
            return (set.id, bpm)
        }
    }

    /// Writes the history into `file` (a state file restd created and left).
    func write(to file: StateFile) throws {
        var script: [String] = []
        for set in sets {
            let key = set.exercise.lowercased()
            script.append(
                "INSERT INTO sets (id, timer_id, at_usec, exercise, exercise_key, reps, weight_kg, failed) VALUES "
                    + "(\(set.id), 'default', \(set.atUSec), \(StateFile.literal(set.exercise)), "
                    + "\(StateFile.literal(key)), \(set.reps.map(String.init) ?? "NULL"), "
                    + "\(set.weightKg.map { String($0) } ?? "NULL"), 0)")
            let rest = set.rest
            let recovery =
                rest.recovery.map {
                    "\($0.hrr60), \($0.timeToTargetUSec), 40"
                } ?? "NULL, NULL, NULL"
            script.append(
                "INSERT INTO rests (set_id, timer_id, exercise, exercise_key, started_at_usec, planned_usec, source, "
                    + "adjust_usec, paused_usec, paused_at_usec, outcome, ended_at_usec, taken_usec, rr_ms, hrr60, "
                    + "time_to_target_usec, rmssd_beats) VALUES (\(set.id), 'default', "
                    + "\(StateFile.literal(set.exercise)), \(StateFile.literal(key)), \(set.atUSec), "
                    + "\(rest.plannedUSec), '\(rest.source)', 0, 0, 0, '\(rest.outcome)', "
                    + "\(set.atUSec + rest.takenUSec), \(rest.takenUSec), '', \(recovery))")
        }
        script.append(
            "INSERT INTO exercises (key, name, last_rest_usec, sets, last_seen_usec) "
                + "SELECT exercise_key, exercise, NULL, count(*), max(at_usec) FROM sets GROUP BY exercise_key")
        for workout in workouts {
            script.append(
                "INSERT INTO workouts (name, started_at_usec, ended_at_usec, sets_done, sets_planned, volume_kg, "
                    + "total_rest_usec, median_rest_usec, abandoned) VALUES (\(StateFile.literal(workout.name)), "
                    + "\(workout.startedAtUSec), \(workout.endedAtUSec), \(workout.sets), \(workout.sets), "
                    + "\(workout.volumeKg), \(workout.totalRestUSec), \(workout.medianRestUSec), 0)")
        }
        for trace in heartRates {
            let hex = trace.bpm.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
            let set = sets[trace.setID - 1]
            script.append(
                "INSERT INTO rest_heart_rates (set_id, started_at_usec, bpm, target_bpm, minimum_usec, hold_usec, "
                    + "ended_after_usec, ending) VALUES (\(set.id), \(set.atUSec), X'\(hex)', 120, 60000000, "
                    + "10000000, \((trace.bpm.count - 1) * 1_000_000), 'recovered')")
        }
        try file.executeScript(script.joined(separator: ";\n"))
    }

    // MARK: What the report must draw

    /// Weeks with volume, times the series with volume in each (Squat's legs, Bench press's push).
    var volumeBars: Int { Self.sessions * 2 }
    /// The exercises' charts, in the order they first appear.
    static let exercises = ["Squat", "Bench press", "Pull-up"]
}
