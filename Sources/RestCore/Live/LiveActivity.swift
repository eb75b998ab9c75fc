import Localization

/// The current live activity: heart rate, progress, exercise and custom fields, merged from
/// producers' updates. Pure: every method takes the time it happens at.
public struct LiveActivity: Sendable, Equatable {
    public private(set) var limits: LiveLimits
    /// The current fields (not yet necessarily published: streams throttle that).
    public private(set) var fields: [String: LiveValue] = [:]
    /// CLOCK_BOOTTIME at which heart_rate goes stale, fixed when it is sent: a new staleness
    /// interval applies from the next refresh on.
    private var heartRateStaleAt: USec?
    /// The strap's own fields currently shown (heart_rate_sensor, heart_rate_contact,
    /// sensor_battery), and when they go stale: the strap's last reading plus the staleness.
    private var strapKeys: Set<String> = []
    private var strapStaleAt: USec?
    /// Until when a producer's heart_rate takes precedence over the strap's readings.
    private var producerPrecedenceUntil: USec?

    public init(limits: LiveLimits = .standard) {
        self.limits = limits
    }

    /// Merges an update (latest value per key wins), after dropping the fields named in
    /// `removing`. All or nothing: a refused update changes nothing. Returns whether any field
    /// changed; re-sending heart_rate refreshes its staleness even when the value is the same.
    public mutating func update(
        _ entries: [String: LiveValue], removing removed: Set<String> = [], boottime: USec
    ) throws(LiveError) -> Bool {
        try check(entries, removing: removed)
        var changed = false
        for key in removed where entries[key] == nil {
            changed = fields.removeValue(forKey: key) != nil || changed
        }
        var setsHeartRate = false
        for (key, value) in entries {
            changed = fields.updateValue(value, forKey: key) != value || changed
            setsHeartRate = setsHeartRate || key == LiveKey.heartRate
        }
        // A strap's field a producer set or removed is no longer the strap's to let go stale.
        strapKeys.subtract(entries.keys)
        strapKeys.subtract(removed)
        if strapKeys.isEmpty { strapStaleAt = nil }
        if setsHeartRate {
            heartRateStaleAt = boottime.addingSaturated(limits.heartRateStaleUSec)
            // A person overriding a faulty strap: its readings are set aside for a while, and the
            // fields that describe it go, since the heart rate shown no longer comes from it.
            producerPrecedenceUntil = boottime.addingSaturated(limits.producerPrecedenceUSec)
            for key in strapKeys { changed = fields.removeValue(forKey: key) != nil || changed }
            strapKeys = []
            strapStaleAt = nil
        }
        return changed
    }

    /// Refuses an update that `update` must not apply, before anything of it is applied: a
    /// value out of its key's rules (the first bad key in key order is named, whatever order
    /// the update came in), progress_done over progress_total, or too many custom keys.
    private func check(_ entries: [String: LiveValue], removing removed: Set<String>) throws(LiveError) {
        if entries.contains(where: { (try? validated(key: $0.key, value: $0.value)) == nil }) {
            for key in entries.keys.sorted() { _ = try validated(key: key, value: entries[key]!) }
        }
        // The fields already hold both rules: only this method sets progress or custom keys (a
        // strap's reading sets its own four keys only, the rest only remove), and the limits of
        // both are fixed. So only an update that sets progress or adds a custom key can break one.
        /// A field as it would be after the update.
        func after(_ key: String) -> LiveValue? { entries[key] ?? (removed.contains(key) ? nil : fields[key]) }
        // Compared key by key: cheaper than two lookups for the few keys of an update.
        if entries.keys.contains(where: { $0 == LiveKey.progressDone || $0 == LiveKey.progressTotal }),
            case .integer(let done)? = after(LiveKey.progressDone),
            case .integer(let total)? = after(LiveKey.progressTotal),
            done > total
        {
            throw .invalidArgs(
                localized("%1$s %2$d is more than %3$s %4$d", LiveKey.progressDone, done, LiveKey.progressTotal, total))
        }
        guard entries.keys.contains(where: { LiveKey.isCustom($0) && fields[$0] == nil }) else { return }
        var customCount = 0
        for key in entries.keys where LiveKey.isCustom(key) { customCount += 1 }
        for key in fields.keys where LiveKey.isCustom(key) && entries[key] == nil && !removed.contains(key) {
            customCount += 1
        }
        guard customCount <= limits.maxCustomKeys else {
            throw .limitExceeded(
                localized(
                    "at most %1$d custom %2$s keys may be set; this update would make %3$d", limits.maxCustomKeys, "x_",
                    customCount))
        }
    }

    /// Whether a strap's reading at `boottime` counts: not while a producer's heart_rate takes
    /// precedence over the strap (`applyStrapReading` then ignores it).
    public func takesStrapReading(boottime: USec) -> Bool {
        producerPrecedenceUntil.map { boottime >= $0 } ?? true
    }

    /// Merges a strap's reading (`HeartRateReading.liveFields`): its own fields replace those of
    /// its previous reading; heart_rate is only ever set here, and goes stale by the usual rule
    /// (when contact is lost, say). Ignored while a producer's heart_rate takes precedence.
    /// A field that does not validate, or that is not one of a strap's (`LiveKey.fromStrap`), is
    /// left out. Returns whether any field changed.
    public mutating func applyStrapReading(_ entries: [String: LiveValue], boottime: USec) -> Bool {
        if let until = producerPrecedenceUntil {
            guard boottime >= until else { return false }
            producerPrecedenceUntil = nil
        }
        var merged = fields
        var keys: Set<String> = []
        for (key, value) in entries where LiveKey.fromStrap.contains(key) {
            guard let value = try? validated(key: key, value: value) else { continue }
            merged[key] = value
            if key == LiveKey.heartRate {
                heartRateStaleAt = boottime.addingSaturated(limits.heartRateStaleUSec)
            } else {
                keys.insert(key)
            }
        }
        for key in strapKeys.subtracting(keys) { merged[key] = nil }
        strapKeys = keys
        strapStaleAt = keys.isEmpty ? nil : boottime.addingSaturated(limits.heartRateStaleUSec)
        let changed = merged != fields
        fields = merged
        return changed
    }

    /// Clears every field. Returns whether anything was set.
    public mutating func end() -> Bool {
        heartRateStaleAt = nil
        strapKeys = []
        strapStaleAt = nil
        producerPrecedenceUntil = nil
        defer { fields = [:] }
        return !fields.isEmpty
    }

    /// When heart_rate or the strap's fields go stale next (CLOCK_BOOTTIME), nil when neither is set.
    public var staleAt: USec? {
        let heartRate = fields[LiveKey.heartRate] != nil ? heartRateStaleAt : nil
        let strap = strapKeys.isEmpty ? nil : strapStaleAt
        switch (heartRate, strap) {
        case let (a?, b?): return min(a, b)
        case let (a?, nil): return a
        case let (nil, b?): return b
        case (nil, nil): return nil
        }
    }

    /// Removes heart_rate when it has not been refreshed in time, and the strap's fields when no
    /// reading came in time. Returns whether anything was removed.
    public mutating func removeStale(boottime: USec) -> Bool {
        var removed = false
        if fields[LiveKey.heartRate] != nil, let due = heartRateStaleAt, boottime >= due {
            fields[LiveKey.heartRate] = nil
            heartRateStaleAt = nil
            removed = true
        }
        if !strapKeys.isEmpty, let due = strapStaleAt, boottime >= due {
            for key in strapKeys { fields[key] = nil }
            strapKeys = []
            strapStaleAt = nil
            removed = true
        }
        return removed
    }

    /// Checks an update as `update` would on an empty activity, for a client that wants to refuse
    /// what restd would refuse before it asks (restctl's usage errors).
    public static func check(_ entries: [String: LiveValue], limits: LiveLimits = .standard) throws(LiveError) {
        var probe = LiveActivity(limits: limits)
        _ = try probe.update(entries, boottime: 0)
    }

    /// A new staleness interval (a configuration reload). It applies from the next heart_rate
    /// update on: one already shown keeps the deadline it was sent with, so a reload neither
    /// removes a fresh value at once nor keeps an old one longer than promised when it came.
    public mutating func setHeartRateStaleUSec(_ interval: USec) {
        limits.heartRateStaleUSec = interval
    }

    private func validated(key: String, value: LiveValue) throws(LiveError) -> LiveValue {
        switch key {
        case LiveKey.heartRate:
            guard case .integer(let bpm) = value else { throw .invalidArgs(localized("%1$s must be an integer", key)) }
            guard limits.heartRate.contains(bpm) else {
                throw .invalidArgs(
                    localized(
                        "%1$s %2$d is out of range: give %3$d to %4$d bpm", key, bpm, limits.heartRate.lowerBound,
                        limits.heartRate.upperBound))
            }
        case LiveKey.progressDone, LiveKey.progressTotal:
            guard case .integer(let count) = value else {
                throw .invalidArgs(localized("%1$s must be an integer", key))
            }
            guard (0...limits.maxProgress).contains(count) else {
                throw .invalidArgs(
                    localized("%1$s %2$d is out of range: give %3$d to %4$d", key, count, 0, limits.maxProgress))
            }
        case LiveKey.exercise, LiveKey.workout, LiveKey.heartRateSensor:
            guard case .string(let text) = value else { throw .invalidArgs(localized("%1$s must be a string", key)) }
            try checkText(text, key: key)
        case LiveKey.heartRateContact:
            guard case .boolean = value else { throw .invalidArgs(localized("%1$s must be a boolean", key)) }
        case LiveKey.sensorBattery:
            guard case .integer(let percent) = value else {
                throw .invalidArgs(localized("%1$s must be an integer", key))
            }
            guard (0...100).contains(percent) else {
                throw .invalidArgs(localized("%1$s %2$d is out of range: give %3$d to %4$d %%", key, percent, 0, 100))
            }
        default:
            guard LiveKey.isCustom(key) else {
                let keys = [
                    LiveKey.heartRate, LiveKey.heartRateSensor, LiveKey.heartRateContact, LiveKey.sensorBattery,
                    LiveKey.progressDone, LiveKey.progressTotal, LiveKey.exercise, LiveKey.workout,
                ]
                if let meant = Suggestion.likelyMeant(key, among: keys) {
                    throw .invalidArgs(
                        localized(
                            "unknown key %1$s; did you mean %2$s?", MessageText.name(key), MessageText.name(meant)))
                }
                throw .invalidArgs(
                    localized(
                        "unknown key %1$s; use %2$s, or a custom key %3$s", MessageText.name(key),
                        keys.joined(separator: ", "), "x_[a-z0-9_]{1,30}"))
            }
            if case .string(let text) = value { try checkText(text, key: key) }
            if case .double(let number) = value, !number.isFinite {
                throw .invalidArgs(localized("%1$s must be a finite number", key))
            }
        }
        return value
    }

    private func checkText(_ text: String, key: String) throws(LiveError) {
        do {
            try TimerOptions.validateText(text, field: key, limits: TimerLimits(maxTextBytes: limits.maxTextBytes))
        } catch {
            throw .invalidArgs(error.message)
        }
    }
}
