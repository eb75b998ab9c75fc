/// The names of restd's D-Bus API, shared by the daemon and its clients.
public enum RestBus {
    /// The well-known bus name restd owns.
    public static let name = "io.restd.Rest1"
    /// The manager object.
    public static let managerPath = "/io/restd/Rest1"
    /// Parent of the timer objects: `/io/restd/Rest1/timer/<id>`.
    public static let timersPath = "/io/restd/Rest1/timer"

    /// The live activity object.
    public static let livePath = "/io/restd/Rest1/live"
    /// The training history object.
    public static let historyPath = "/io/restd/Rest1/history"
    /// The workout in progress.
    public static let workoutPath = "/io/restd/Rest1/workout"

    public static let managerInterface = "io.restd.Rest1.Manager"
    public static let timerInterface = "io.restd.Rest1.Timer"
    public static let liveInterface = "io.restd.Rest1.Live"
    public static let historyInterface = "io.restd.Rest1.History"
    public static let workoutInterface = "io.restd.Rest1.Workout"

    /// The object path of the timer with this (already validated) id: its path element is the
    /// id escaped as systemd's `sd_bus_path_encode` does, so that `bench-press` (a `-` is not
    /// allowed in an object path) has a path too: `/io/restd/Rest1/timer/bench_2dpress`.
    public static func timerPath(id: String) -> String { timersPath + "/" + TimerPathElement.encode(id) }

    /// The version reported by the `Version` property and `--version`.
    public static let version = "0.1.0"
}

/// Method and signal names of io.restd.Rest1.Manager.
public enum ManagerMember {
    public static let start = "Start"
    public static let pause = "Pause"
    public static let resume = "Resume"
    public static let adjust = "Adjust"
    public static let restart = "Restart"
    public static let cancel = "Cancel"
    public static let completeSet = "CompleteSet"
    public static let skip = "Skip"
    /// Stops a ringing rest's alarm ("" as the id: every ringing timer's).
    public static let silence = "Silence"
    /// Whether the caller is the first to hear that no notification server can show anything.
    public static let takeNotificationServerWarning = "TakeNotificationServerWarning"
    /// Whether the caller is the first to hear that no sound server plays restd's sounds.
    public static let takeSoundServerWarning = "TakeSoundServerWarning"
    /// Reads config.toml again (as SIGHUP does); answers the keys that changed.
    public static let reload = "Reload"
    /// An import of another app's history: begun, its rows added in batches, then committed
    /// in one transaction (`ImportRowSignature`, `ImportKey`).
    public static let beginImport = "BeginImport"
    public static let addImportRows = "AddImportRows"
    public static let commitImport = "CommitImport"
    public static let expired = "Expired"
}

/// A row of AddImportRows: workout_start, workout_name, exercise, order, at_usec, reps
/// (`SetRow.noReps` for none), weight_kg (NaN for none), warmup, failed, category ("" for none).
public enum ImportRowSignature {
    public static let signature = "(sssutudbbs)"
}

/// Keys of CommitImport's options and of its reply.
public enum ImportKey {
    /// b (option): count what the import would add, and add nothing.
    public static let dryRun = "dry_run"
    /// u: sets added (warm-ups among them), workouts added.
    public static let setsAdded = "sets_added"
    public static let warmupsAdded = "warmups_added"
    public static let workoutsAdded = "workouts_added"
    /// u: sets left out as imported before, or as restd's own sets of the same exercise, reps
    /// and weight on the same day.
    public static let alreadyImported = "already_imported"
    public static let alreadyRecorded = "already_recorded"
    /// as: the exercises of the sets added, new to restd or matched to one it knew.
    public static let newExercises = "new_exercises"
    public static let matchedExercises = "matched_exercises"
    /// t: the first and last set added (left out when none was).
    public static let earliestUSec = "earliest_usec"
    public static let latestUSec = "latest_usec"
}

/// Method names of io.restd.Rest1.Timer: the Manager's, without the id.
public enum TimerMember {
    public static let pause = ManagerMember.pause
    public static let resume = ManagerMember.resume
    public static let adjust = ManagerMember.adjust
    public static let restart = ManagerMember.restart
    public static let cancel = ManagerMember.cancel
    public static let silence = ManagerMember.silence
}

/// Method and signal names of io.restd.Rest1.Live.
public enum LiveMember {
    public static let update = "Update"
    public static let end = "End"
    public static let subscribe = "Subscribe"
    public static let unsubscribe = "Unsubscribe"
    public static let sensors = "Sensors"
    public static let sensorsProblem = "SensorsProblem"
    public static let changed = "Changed"
}

/// Method and signal names of io.restd.Rest1.History.
public enum HistoryMember {
    public static let sets = "Sets"
    public static let setRows = "SetRows"
    public static let rests = "Rests"
    public static let exercises = "Exercises"
    public static let stats = "Stats"
    public static let workouts = "Workouts"
    public static let setRecorded = "SetRecorded"
    public static let heartRates = "HeartRates"
    public static let undo = "Undo"
    public static let deleteSets = "DeleteSets"
    public static let editSet = "EditSet"
    public static let renameExercise = "RenameExercise"
    public static let setsChanged = "SetsChanged"
}

/// Method names of io.restd.Rest1.Workout.
public enum WorkoutMember {
    public static let start = "Start"
    public static let next = "Next"
    public static let previous = "Previous"
    public static let end = "End"
}

/// Error names of io.restd.Rest1 (besides org.freedesktop.DBus.Error.InvalidArgs).
public enum RestErrorName {
    public static let noSuchTimer = "io.restd.Rest1.Error.NoSuchTimer"
    public static let invalidState = "io.restd.Rest1.Error.InvalidState"
    public static let limitExceeded = "io.restd.Rest1.Error.LimitExceeded"
    /// A mutation could not be stored (disk full, read-only state directory): nothing changed.
    public static let storageFailed = "io.restd.Rest1.Error.StorageFailed"
    public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    /// Reload found config.toml wrong: the configuration in force stays.
    public static let invalidConfiguration = "io.restd.Rest1.Error.InvalidConfiguration"
}

/// Keys of the `options` dictionary of Start.
public enum StartOption {
    public static let label = "label"
    public static let next = "next"
    public static let notify = "notify"
    /// b: whether restd plays the rest's cues and alarm; independent of `notify`.
    public static let sound = "sound"
    /// A pre-alert this long (µs, t) before the end; 0 for none.
    public static let warn = "warn_usec"
}

/// Property names of io.restd.Rest1.Timer.
public enum TimerProperty {
    public static let id = "Id"
    public static let label = "Label"
    public static let next = "Next"
    public static let state = "State"
    public static let durationUSec = "DurationUSec"
    public static let startedAtUSec = "StartedAtUSec"
    public static let endsAtUSec = "EndsAtUSec"
    public static let remainingUSec = "RemainingUSec"
    public static let expiredAtUSec = "ExpiredAtUSec"
    public static let notify = "Notify"
    /// Whether restd plays the rest's cues and alarm.
    public static let sound = "Sound"
    /// Whether the rest is over and its alarm rings until silenced or `ring_for` runs out.
    public static let ringing = "Ringing"
    public static let warnUSec = "WarnUSec"
    /// Which rule chose this rest when CompleteSet started it (`last_used`, …); "" otherwise.
    public static let restSource = "RestSource"
    /// Whether this rest may end on recovery (heart-rate-guided).
    public static let untilRecovered = "UntilRecovered"
    /// Why the rest ended (`recovered`, `planned`, `user`, `sensor_lost`); while a rest that may
    /// end on recovery runs, `sensor_lost` once its strap was lost; "" otherwise.
    public static let endReason = "EndReason"
    /// The smoothed heart rate when the rest ended as recovered, whole bpm; 0 otherwise.
    public static let recoveredBPM = "RecoveredBPM"
}

/// Property names of io.restd.Rest1.Live.
public enum LiveProperty {
    public static let fields = "Fields"
    public static let active = "Active"
    public static let updatedAtUSec = "UpdatedAtUSec"
    public static let maxRateHz = "MaxRateHz"
}

/// Property names of io.restd.Rest1.Workout.
public enum WorkoutProperty {
    public static let active = "Active"
    public static let name = "Name"
    public static let exercise = "Exercise"
    public static let setIndex = "SetIndex"
    public static let setsPlanned = "SetsPlanned"
    public static let setsDone = "SetsDone"
    public static let startedAtUSec = "StartedAtUSec"
    public static let plan = "Plan"
    public static let summary = "Summary"

    public static let all = [active, name, exercise, setIndex, setsPlanned, setsDone, startedAtUSec, plan, summary]
}

/// Keys of a workout's Plan entries and of its Summary (io.restd.Rest1.Workout).
public enum WorkoutKey {
    // A Plan entry: one per exercise, in order; a superset's exercises share `block`.
    public static let name = "name"
    public static let block = "block"
    public static let sets = "sets"
    public static let reps = "reps"
    public static let weightKg = "weight_kg"
    public static let restUSec = "rest_usec"
    public static let failedRestUSec = "failed_rest_usec"
    // The Summary.
    public static let startedAtUSec = "started_at_usec"
    public static let endedAtUSec = "ended_at_usec"
    public static let durationUSec = "duration_usec"
    public static let setsDone = "sets_done"
    public static let setsPlanned = "sets_planned"
    public static let volumeKg = "volume_kg"
    public static let totalRestUSec = "total_rest_usec"
    public static let medianRestUSec = "median_rest_usec"
    public static let abandoned = "abandoned"
}

/// Property names of io.restd.Rest1.Manager.
public enum ManagerProperty {
    public static let version = "Version"
    /// The rest `restctl start` uses when no duration is given (`default_duration` in config.toml).
    public static let defaultDurationUSec = "DefaultDurationUSec"
    /// Whether desktop notifications can be shown: a `NotificationServerState` value.
    public static let notificationServer = "NotificationServer"
    /// Whether restd's own sounds can be heard: a `SoundServerState` value.
    public static let soundServer = "SoundServer"
    /// The unit people read and type weights in, "kg" or "lb" (`[history] weight_unit`).
    public static let weightUnit = "WeightUnit"
}

/// The values of the Manager's `SoundServer`: whether restd's cues and alarm can be played.
public enum SoundServerState: String, Sendable, CaseIterable {
    /// restd has not needed a sound server since it started.
    case unknown
    /// A sound server (PulseAudio, or PipeWire's pipewire-pulse) answered the last time.
    case available
    /// None answered, or it went away: rests end without restd's sounds.
    case missing
}

/// The values of the Manager's `NotificationServer`: whether "Rest over" can be shown.
public enum NotificationServerState: String, Sendable, CaseIterable {
    /// A notification server owns org.freedesktop.Notifications.
    case running
    /// None runs, but the bus can start one (D-Bus activation) when the first notification comes.
    case activatable
    /// None runs and none can be started, or starting one failed: notifications go unseen.
    case missing
}

/// Keys of each entry of io.restd.Rest1.Live.Sensors (`aa{sv}`): one heart-rate strap BlueZ knows.
public enum SensorKey {
    /// s: the Bluetooth address, `AA:BB:CC:DD:EE:FF`.
    public static let address = "address"
    /// s: the name the user sees (BlueZ's Alias).
    public static let alias = "alias"
    public static let paired = "paired"
    public static let connected = "connected"
    /// x: percent, only when BlueZ reports a battery.
    public static let battery = "battery"
    /// x: the last heart rate restd read from it, only when there was one.
    public static let heartRate = "heart_rate"
    /// t: when that value came (CLOCK_REALTIME µs), only with heart_rate.
    public static let heartRateAtUSec = "heart_rate_at_usec"
    /// b: whether restd reads this strap now.
    public static let reading = "reading"
}

/// The escaping between timer ids and the last element of their object paths.
///
/// Letters and digits stay as they are (`squat`, `default`); every other byte, `_` and `-`
/// included, and a digit in the first place, becomes `_` and two lower-case hex digits
/// (`plank_2` → `plank_5f2`, `bench-press` → `bench_2dpress`, `1` → `_31`). This is
/// `sd_bus_path_encode(3)`'s rule, so the paths look like systemd's and decode the same way.
public enum TimerPathElement {
    public static func encode(_ id: String) -> String {
        if id.isEmpty { return "_" }
        var out: [UInt8] = []
        for (index, byte) in id.utf8.enumerated() {
            if isLetter(byte) || (index > 0 && isDigit(byte)) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "_"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0xF)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The id a path element stands for, or nil when it is not the encoding of anything
    /// (`encode(decode(e)!) == e` whenever `decode` succeeds).
    public static func decode(_ element: String) -> String? {
        if element == "_" { return "" }
        let bytes = Array(element.utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "_") {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
                    let low = hexValue(bytes[index + 2])
                else { return nil }
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(byte)
                index += 1
            }
        }
        guard let id = String(validating: out, as: UTF8.self), encode(id) == element else { return nil }
        return id
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}

/// Keys of the `options` dictionary of CompleteSet.
public enum SetOption {
    /// u: repetitions, 0–10,000.
    public static let reps = "reps"
    /// d: the weight in kg, 0–1,000.
    public static let weightKg = "weight_kg"
    /// b: the set failed; the rest is longer.
    public static let failed = "failed"
    /// t: the rest, chosen by hand (1 s to 24 h).
    public static let restUSec = "rest_usec"
    /// b: the rest may end on recovery (true) or not (false), whatever config.toml says.
    public static let untilRecovered = "until_recovered"
    /// b: the rest plays its cues and alarm (true) or not (false), whatever config.toml says.
    public static let sound = "sound"

    public static let all = [reps, weightKg, failed, restUSec, untilRecovered, sound]
}

/// io.restd.Rest1.History.SetRows: the sets of Sets, each a structure of fixed columns in the
/// order of Sets' keys — id, timer, at_usec, exercise, reps, weight_kg, failed, then the rest's
/// planned, adjust, paused, source, outcome, taken and ended_at — and last an `a{sv}` of every
/// other key of Sets (a rest's recovery, with `rest_` before each). A value Sets leaves out is
/// sent as the value no set can have: reps `noReps`, weight_kg NaN, an empty rest_outcome when
/// no rest followed, 0 for the taken and ended_at of a rest still open.
public enum SetRow {
    public static let signature = "(xstsudbtxtsstta{sv})"
    /// reps of a set recorded without them (a set holds at most 10,000).
    public static let noReps = UInt32.max
}

/// Keys of the entries io.restd.Rest1.History returns (`aa{sv}`; the last column of SetRows) and
/// of SetRecorded.
public enum HistoryKey {
    // A set (Sets, SetRecorded).
    public static let id = "id"
    public static let timer = "timer"
    public static let atUSec = "at_usec"
    public static let exercise = "exercise"
    public static let reps = "reps"
    public static let weightKg = "weight_kg"
    public static let failed = "failed"
    /// b: an imported warm-up set (left out otherwise): never a failed set or a record.
    public static let warmup = "warmup"
    /// SetRecorded's records the set beat, each with the best it beat (d kg, u reps), left out
    /// when not beaten: the heaviest weight; the most reps at its weight; the estimated one-rep max.
    public static let recordHeaviestWasKg = "record_heaviest_was_kg"
    public static let recordRepsWas = "record_reps_was"
    public static let recordEstimateKg = "record_e1rm_kg"
    public static let recordEstimateWasKg = "record_e1rm_was_kg"
    /// b: in the sets Undo and DeleteSets removed, true for one whose rest was still on its
    /// timer (cancelled with it), and for the one that was the workout's last set (the workout
    /// went one set back).
    public static let cancelledRest = "cancelled_rest"
    public static let workoutBack = "workout_back"
    /// The rest that followed the set, prefixed `rest_` in a set's entry.
    public static let restPrefix = "rest_"
    // A rest (Rests; in Sets with `rest_` before each).
    public static let setID = "set_id"
    public static let startedAtUSec = "started_at_usec"
    public static let plannedUSec = "planned_usec"
    public static let adjustUSec = "adjust_usec"
    public static let pausedUSec = "paused_usec"
    public static let source = "source"
    public static let outcome = "outcome"
    public static let endedAtUSec = "ended_at_usec"
    public static let takenUSec = "taken_usec"
    public static let rrMS = "rr_ms"
    // A rest's recovery (a rest that may end on recovery, with a strap): each left out when
    // the data do not say (`RecoveryMetrics`).
    /// d: bpm at the set's end, at the peak, 30/60/120 s into the rest, the lowest.
    public static let hrSetEnd = "hr_set_end"
    public static let hrPeak = "hr_peak"
    public static let hr30s = "hr_30s"
    public static let hr60s = "hr_60s"
    public static let hr120s = "hr_120s"
    public static let hrMin = "hr_min"
    /// d: the peak minus the heart rate 60 s after it, bpm.
    public static let hrr60 = "hrr60"
    /// t: from the rest's start until smoothed heart rate first reached the target.
    public static let timeToTargetUSec = "time_to_target_usec"
    /// t: from the rest's start until the peak's sample (`hr_peak`).
    public static let hrPeakAfterUSec = "hr_peak_after_usec"
    /// d: the share (0–1) of the rest with a known heart rate.
    public static let hrCoverage = "hr_coverage"
    /// d: RMSSD in ms; u: the accepted beats in its window; d: the share of its beats rejected.
    public static let rmssdMS = "rmssd_ms"
    public static let rmssdBeats = "rmssd_beats"
    public static let rmssdRejected = "rmssd_rejected"
    // A followed rest's heart rate (HeartRates), with `setID` and `startedAtUSec`.
    /// ay: the smoothed heart rate once a second from the rest's start, bpm, 0 where unknown.
    public static let bpm = "bpm"
    /// d: the target; t: the minimum and the hold; t: from the start until following ended; s: why.
    public static let targetBPM = "target_bpm"
    public static let minimumUSec = "minimum_usec"
    public static let holdUSec = "hold_usec"
    public static let endedAfterUSec = "ended_after_usec"
    public static let ending = "ending"
    // An exercise (Exercises).
    public static let name = "name"
    public static let lastRestUSec = "last_rest_usec"
    public static let overrideUSec = "override_usec"
    public static let failedRestUSec = "failed_rest_usec"
    public static let category = "category"
    /// t: the rest of its category in [categories].
    public static let categoryRestUSec = "category_rest_usec"
    public static let sets = "sets"
    public static let lastSeenUSec = "last_seen_usec"
    // Stats.
    public static let rests = "rests"
    public static let medianPlannedUSec = "median_planned_usec"
    public static let medianTakenUSec = "median_taken_usec"
    public static let medianOverrunUSec = "median_overrun_usec"
    public static let skipped = "skipped"
    /// u: rests followed for recovery; t: the median time to the target over those that got there.
    public static let recoveryRests = "recovery_rests"
    public static let medianTimeToTargetUSec = "median_time_to_target_usec"
    /// aa{sv}: HRR60 by local week, oldest first, each `week_start_at_usec` t, `median_hrr60` d, `rests` u.
    public static let hrr60Weeks = "hrr60_weeks"
    public static let weekStartAtUSec = "week_start_at_usec"
    public static let medianHRR60 = "median_hrr60"
    /// The outcome of a rest still in progress.
    public static let openOutcome = "open"
}
