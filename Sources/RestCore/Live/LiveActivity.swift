/// The current live activity: heart rate, progress, exercise and custom fields, merged from
/// producers' updates. Pure: every method takes the time it happens at.
public struct LiveActivity: Sendable, Equatable {
    public private(set) var limits: LiveLimits
    /// The current fields (not yet necessarily published: streams throttle that).
    public private(set) var fields: [String: LiveValue] = [:]
    /// CLOCK_BOOTTIME at which heart_rate goes stale, fixed when it is sent: a new staleness
    /// interval applies from the next refresh on.
    private var heartRateStaleAt: USec?

    public init(limits: LiveLimits = .standard) {
        self.limits = limits
    }

    /// Merges an update (latest value per key wins). All or nothing: a refused update changes
    /// nothing. Returns whether any field changed; re-sending heart_rate refreshes its
    /// staleness even when the value is the same.
    public mutating func update(_ entries: [String: LiveValue], boottime: USec) throws(LiveError) -> Bool {
        var merged = fields
        for key in entries.keys.sorted() {
            merged[key] = try validated(key: key, value: entries[key]!)
        }
        if let done = merged[LiveKey.progressDone], let total = merged[LiveKey.progressTotal],
           case .integer(let d) = done, case .integer(let t) = total, d > t {
            throw .invalidArgs("progress_done \(d) is more than progress_total \(t)")
        }
        let customCount = merged.keys.filter(LiveKey.isCustom).count
        guard customCount <= limits.maxCustomKeys else {
            throw .limitExceeded("at most \(limits.maxCustomKeys) custom x_ keys may be set; this update would make \(customCount)")
        }
        if entries[LiveKey.heartRate] != nil { heartRateStaleAt = boottime.addingSaturated(limits.heartRateStaleUSec) }
        let changed = merged != fields
        fields = merged
        return changed
    }

    /// Clears every field. Returns whether anything was set.
    public mutating func end() -> Bool {
        heartRateStaleAt = nil
        defer { fields = [:] }
        return !fields.isEmpty
    }

    /// When heart_rate goes stale (CLOCK_BOOTTIME), nil when it is not set.
    public var staleAt: USec? {
        guard fields[LiveKey.heartRate] != nil else { return nil }
        return heartRateStaleAt
    }

    /// Removes heart_rate when it has not been refreshed in time. Returns whether it was removed.
    public mutating func removeStale(boottime: USec) -> Bool {
        guard let staleAt, boottime >= staleAt else { return false }
        fields[LiveKey.heartRate] = nil
        heartRateStaleAt = nil
        return true
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
            guard case .integer(let bpm) = value else { throw wrongType(key, "an integer") }
            guard limits.heartRate.contains(bpm) else {
                throw .invalidArgs("heart_rate \(bpm) is out of range \(limits.heartRate.lowerBound)…\(limits.heartRate.upperBound) bpm")
            }
        case LiveKey.progressDone, LiveKey.progressTotal:
            guard case .integer(let count) = value else { throw wrongType(key, "an integer") }
            guard (0...limits.maxProgress).contains(count) else {
                throw .invalidArgs("\(key) \(count) is out of range 0…\(limits.maxProgress)")
            }
        case LiveKey.exercise, LiveKey.workout:
            guard case .string(let text) = value else { throw wrongType(key, "a string") }
            try checkText(text, key: key)
        default:
            guard LiveKey.isCustom(key) else {
                throw .invalidArgs("unknown key \(MessageText.quoted(key)): use heart_rate, progress_done, progress_total, "
                    + "exercise, workout, or a custom key x_[a-z0-9_]{1,30}")
            }
            if case .string(let text) = value { try checkText(text, key: key) }
            if case .double(let number) = value, !number.isFinite {
                throw .invalidArgs("\(key) must be a finite number")
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

    private func wrongType(_ key: String, _ expected: String) -> LiveError {
        .invalidArgs("\(key) must be \(expected)")
    }
}
