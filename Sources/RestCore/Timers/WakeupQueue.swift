/// The timers of a `TimerBook` in the order in which they next need restd: running ones by the
/// CLOCK_BOOTTIME instant of their pre-alert or deadline, expired and paused ones by their last
/// change (from which retention and the untouched-paused limit count). Kept in step with the
/// book's timers by `TimerBook.apply`, so that finding what is due and when to wake up costs a
/// binary search, not a pass over every timer: in a burst of expiries a pass each would add up
/// to most of their lateness.
struct WakeupQueue: Sendable, Equatable {
    /// Entries sorted by (key, id): ties in id order, as `due` lists what it finds.
    struct Keys: Sendable, Equatable {
        private(set) var entries: [(key: USec, id: TimerID)] = []

        init() {}

        /// Entries in any order, sorted once (a book restored at start-up: inserting thousands
        /// one by one would move the array's tail for each).
        init(unsorted: [(key: USec, id: TimerID)]) {
            entries = unsorted.sorted { $0.key < $1.key || ($0.key == $1.key && $0.id < $1.id) }
        }

        var first: USec? { entries.first?.key }
        var count: Int { entries.count }

        mutating func insert(_ key: USec, _ id: TimerID) {
            entries.insert((key, id), at: index(key, id))
        }

        mutating func remove(_ key: USec, _ id: TimerID) {
            let at = index(key, id)
            if at < entries.count, entries[at].key == key, entries[at].id == id { entries.remove(at: at) }
        }

        /// The ids of the entries whose key is at most `limit`.
        func ids(upTo limit: USec) -> ArraySlice<(key: USec, id: TimerID)> {
            entries[..<index(limit, nil)]
        }

        /// The first index whose entry is not before (key, id); with no id, the first past `key`.
        private func index(_ key: USec, _ id: TimerID?) -> Int {
            var low = 0
            var high = entries.count
            while low < high {
                let middle = (low + high) / 2
                let entry = entries[middle]
                let before = entry.key < key || (entry.key == key && id.map { entry.id < $0 } ?? true)
                if before { low = middle + 1 } else { high = middle }
            }
            return low
        }

        static func == (lhs: Keys, rhs: Keys) -> Bool {
            lhs.entries.elementsEqual(rhs.entries) { $0.key == $1.key && $0.id == $1.id }
        }
    }

    /// Running timers by the boottime of their pending pre-alert, else of their deadline.
    private(set) var running = Keys()
    /// Expired timers that ring, by `ringsUntilUSec` (CLOCK_REALTIME): retention does not
    /// count while they ring.
    private(set) var ringing = Keys()
    /// Expired timers that do not ring, by `updatedAtUSec` (CLOCK_REALTIME).
    private(set) var expired = Keys()
    /// Paused timers by `updatedAtUSec` (CLOCK_REALTIME).
    private(set) var paused = Keys()

    init() {}

    /// The queue of these timers, as inserting each would build it.
    init(_ timers: some Collection<RestTimer>) {
        var running: [(key: USec, id: TimerID)] = []
        var ringing: [(key: USec, id: TimerID)] = []
        var expired: [(key: USec, id: TimerID)] = []
        var paused: [(key: USec, id: TimerID)] = []
        for timer in timers {
            let entry = (key: Self.key(of: timer), id: timer.id)
            switch timer.state {
            case .running: running.append(entry)
            case .expired where timer.ringing: ringing.append(entry)
            case .expired: expired.append(entry)
            case .paused: paused.append(entry)
            }
        }
        self.running = Keys(unsorted: running)
        self.ringing = Keys(unsorted: ringing)
        self.expired = Keys(unsorted: expired)
        self.paused = Keys(unsorted: paused)
    }

    mutating func insert(_ timer: RestTimer) {
        modifyKeys(of: timer) { $0.insert(Self.key(of: timer), timer.id) }
    }

    mutating func remove(_ timer: RestTimer) {
        modifyKeys(of: timer) { $0.remove(Self.key(of: timer), timer.id) }
    }

    /// The list that holds `timer`.
    private mutating func modifyKeys(of timer: RestTimer, _ change: (inout Keys) -> Void) {
        switch timer.state {
        case .running: change(&running)
        case .expired where timer.ringing: change(&ringing)
        case .expired: change(&expired)
        case .paused: change(&paused)
        }
    }

    /// A timer's key in its list: the running key, the end of its ring, else its last change.
    private static func key(of timer: RestTimer) -> USec {
        switch timer.state {
        case .running: runningKey(timer)
        case .expired where timer.ringing: timer.ringsUntilUSec
        case .expired, .paused: timer.updatedAtUSec
        }
    }

    /// When a running timer next needs restd: its pre-alert while one is pending, else its deadline.
    static func runningKey(_ timer: RestTimer) -> USec {
        guard timer.warnUSec != 0, !timer.warned else { return timer.deadlineBoottime }
        return timer.deadlineBoottime.subtractingSaturated(timer.warnUSec)
    }
}
