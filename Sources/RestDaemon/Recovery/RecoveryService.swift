import EventLoop
import Glibc
import Logging
import RestCore

/// The rests that may end on recovery, followed from the heart-rate source: one
/// `RecoveryTracker` per such rest while it runs, started with the source's last 5 s (the heart
/// rate of the set just done) and fed every sample after (stamped on CLOCK_BOOTTIME, which never
/// jumps), and one sd-event timer armed only at the earliest `nextEvaluationUSec` — the end of a
/// hold, of a minimum, or a source's silence. The source is a strap, or a producer's
/// `Live.Update` of heart_rate, whichever the live activity shows (`LiveService`). Without heart
/// rate no sample comes, no tracker asks for a wake-up, and restd sleeps.
///
/// It decides nothing itself: it posts what it sees on restd's one queue (`OccurrenceQueue`) — a
/// rest recovered, a strap back, a strap lost (on its own wake-up; before what is due, the lost
/// rests go with it, `StateService.catchUp`), a followed rest's heart rate — and never calls into
/// `StateService`. It hears of the rests from the committed timer events: a running timer with a
/// recovery rule gets a tracker from the start of its run; a paused, ended, replaced or removed
/// one loses it.
final class RecoveryService {
    private let queue: OccurrenceQueue
    private let clock: TimeSource
    private let logger: Logger
    /// By timer: the tracker of its current run.
    private var trackers: [TimerID: RecoveryTracker] = [:]
    /// By followed timer: why its rest ends as things stand (`.sensorLost` while its strap is lost).
    private var endReasons: [TimerID: EndReason] = [:]
    /// The followed runs whose lost strap was logged.
    private var loggedLost = Set<TimerID>()
    /// The source's samples of the last 5 s (at most `HeartSignal.maxWindowSamples`), oldest
    /// first: what a rest starting now begins with.
    private var recent: [HeartSample] = []
    /// By timer: the set its followed rest came after, and when (CLOCK_REALTIME), for its trace.
    private var tracedRests: [TimerID: (setID: Int64, startedAtUSec: USec)] = [:]
    /// Fires at the earliest tracker's `nextEvaluationUSec` (CLOCK_BOOTTIME, 1 µs accuracy: a
    /// hold's end is the rest's end); off when none asks.
    private var wakeup: TimerSource!

    init(queue: OccurrenceQueue, loop: EventLoop, clock: TimeSource, logger: Logger) throws(SystemError) {
        self.queue = queue
        self.clock = clock
        self.logger = logger
        wakeup = try loop.addTimer(clock: CLOCK_BOOTTIME, at: 0, accuracyUSec: 1) { [unowned self] _ in
            self.evaluate(now: self.clock.now())
        }
        wakeup.isEnabled = false
    }

    /// Whether heart rate is coming in at `now`: a valid sample in the last 5 s, what a rest
    /// starting now needs for recovery to be able to end it.
    func heartRateComingIn(at now: Instant) -> Bool {
        guard let last = recent.last(where: \.isValid) else { return false }
        return now.boottime.subtractingSaturated(last.atUSec) < RecoveryTracker.sensorTimeoutUSec
    }

    /// Follows committed timer events: trackers start with a run that may end on recovery, follow
    /// its add and sub, and go when it stops running. `openRests` are the training's, after them.
    func timersChanged(_ events: [TimerEvent], openRests: [TimerID: RestRecord]) {
        var touched = false
        for event in events {
            switch event {
            case .added(let timer), .changed(from: _, to: let timer):
                touched = follow(timer, openRests: openRests) || touched
            case .removed(let timer):
                loggedLost.remove(timer.id)
                endReasons[timer.id] = nil
                touched = stopFollowing(timer.id, ending: .removed) || touched
            case .expired, .warning:
                break
            }
        }
        if touched { rearm() }
    }

    /// One heart-rate sample: kept for the rests that start in the next 5 s, taken by every
    /// followed rest, then what they decide is carried out.
    func sampleArrived(_ sample: HeartSample) {
        recent.append(sample)
        HeartSignal.keepWindow(&recent, at: sample.atUSec) { $0.atUSec }
        guard !trackers.isEmpty else { return }
        for id in Array(trackers.keys) { trackers[id]!.add(sample) }
        evaluate(now: clock.now())
    }

    /// Settles every followed rest at `now` on the wake-up or a sample: a recovered rest ends, a
    /// lost strap is marked, and the wake-up is re-armed.
    func evaluate(now: Instant) {
        for id in settle(now: now).sorted() { queue.post(.strapLost(id), at: now) }
    }

    /// Settles every followed rest at `now` (before what is due, `StateService.catchUp`, and by
    /// `evaluate`): posts a recovered rest's end and a strap back, and re-arms the wake-up; the
    /// rests whose strap was lost, not yet marked, are returned, to go with what is due.
    func settle(now: Instant) -> Set<TimerID> {
        guard !trackers.isEmpty else { return [] }
        var recovered: [(TimerID, Int?, USec)] = []
        var regained: [TimerID] = []
        var lost = Set<TimerID>()
        for id in trackers.keys.sorted() {
            let marked = endReasons[id]
            switch trackers[id]!.evaluate(nowUSec: now.boottime) {
            case .resting:
                if marked == .sensorLost { regained.append(id) }
            case .ended(.planned, _), .ended(.user, _):
                break
            case .ended(.recovered, let atUSec):
                let bpm = trackers[id]!.smoothedBPM(atUSec: atUSec).map { Int($0.rounded()) }
                recovered.append((id, bpm, atUSec))
            case .runsToPlanned, .ended(.sensorLost, _):
                guard marked == nil else { break }
                lost.insert(id)
                // Said once per loss, though a command may leave the marking for later.
                if loggedLost.insert(id).inserted {
                    let what =
                        trackers[id]!.hasHadHeartRate
                        ? "heart rate lost during the rest of timer"
                        : "no heart rate came during the rest of timer"
                    logger.info("\(what) \(MessageText.quoted(id.rawValue)): it runs to its planned maximum")
                }
            }
        }
        // Posted after the loop, together: each change comes back through `timersChanged`.
        queue.holding {
            for id in regained {
                loggedLost.remove(id)
                logger.info(
                    "heart rate back during the rest of timer \(MessageText.quoted(id.rawValue)): it may end on recovery"
                )
                queue.post(.strapBack(id), at: now)
            }
            for (id, bpm, atUSec) in recovered {
                let heartRate = bpm.map { " at \($0) bpm" } ?? ""
                logger.info("the rest of timer \(MessageText.quoted(id.rawValue)) ended on recovery\(heartRate)")
                queue.post(
                    .recovered(id, bpm: bpm, atBoottimeUSec: atUSec, metrics: trackers[id]!.metrics(endUSec: atUSec)),
                    at: now)
            }
        }
        rearm()
        return lost
    }

    /// Posts the recovery so far of every followed rest, for its open rest in the history, as if
    /// it ended at `now`: before a command or an expiry is planned (`StateService.catchUp`), so
    /// that a rest ended by a set, a skip or its deadline is stored with it.
    func noteMetrics(now: Instant) {
        guard !trackers.isEmpty else { return }
        queue.post(.recoveryNoted(trackers.mapValues { $0.metrics(endUSec: now.boottime) }), at: now)
    }

    /// Whether the trackers changed: a running rest with a rule keeps (or gets) a tracker for
    /// its run; anything else has none.
    private func follow(_ timer: RestTimer, openRests: [TimerID: RestRecord]) -> Bool {
        endReasons[timer.id] = timer.endReason
        guard timer.state == .running, let rule = timer.recovery else {
            endReasons[timer.id] = nil
            loggedLost.remove(timer.id)
            let ending: HeartRateTrace.Ending =
                switch timer.state {
                case .paused: .paused
                case .running: .set
                case .expired:
                    switch timer.endReason ?? .planned {
                    case .recovered: .recovered
                    case .planned: .planned
                    case .user: .user
                    case .sensorLost: .sensorLost
                    }
                }
            return stopFollowing(timer.id, ending: ending)
        }
        let startUSec = timer.runStartBoottime
        if var tracker = trackers[timer.id], tracker.startUSec == startUSec {
            guard tracker.rule != rule else { return false }
            tracker.replan(plannedUSec: rule.plannedUSec)
            trackers[timer.id] = tracker
        } else {
            loggedLost.remove(timer.id)
            stopFollowing(timer.id, ending: .set)
            trackers[timer.id] = RecoveryTracker(rule: rule, startUSec: startUSec, leadIn: recent)
            if let rest = openRests[timer.id] {
                tracedRests[timer.id] = (rest.setID, timer.startedAtUSec)
            }
        }
        return true
    }

    /// Stops following the rest on timer `id`, if one was followed, and has its heart rate kept
    /// in the history (`HeartRateTrace`): up to when the tracker ended it, or until now when
    /// something else did. Whether there was one.
    @discardableResult
    private func stopFollowing(_ id: TimerID, ending: HeartRateTrace.Ending) -> Bool {
        guard var tracker = trackers.removeValue(forKey: id) else { return false }
        guard let rest = tracedRests.removeValue(forKey: id) else { return true }
        let now = clock.now()
        let end: USec =
            switch tracker.evaluate(nowUSec: now.boottime) {
            case .ended(_, let atUSec): atUSec
            case .resting, .runsToPlanned: now.boottime
            }
        queue.post(
            .heartRateTrace(
                HeartRateTrace(
                    setID: rest.setID, startedAtUSec: rest.startedAtUSec, tracker: tracker, endUSec: end, ending: ending
                )),
            at: now)
        return true
    }

    private func rearm() {
        if let next = trackers.values.compactMap(\.nextEvaluationUSec).min() {
            wakeup.schedule(at: next)
        } else {
            wakeup.isEnabled = false
        }
    }
}
