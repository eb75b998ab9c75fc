/// A book's timers by id, stored densely: the timers in an array, and an index from id to their
/// place in it. A dictionary of timers keeps a slot the size of a whole timer for every place
/// of its power-of-two capacity (16,384 slots for 10,000 timers). Here the index's slots are
/// small, and the array holds the timers themselves, sized to them when a book is restored.
public struct TimerTable: Sendable, Equatable {
    private var storage: [RestTimer] = []
    private var places: [TimerID: Int] = [:]

    public init() {}

    /// The table of `timers`, which keeps their array as its storage (a restored book: no timer
    /// copied, one hash per id). Of timers sharing an id, the last is kept, as `update` would.
    public init(_ timers: [RestTimer]) {
        storage = timers
        places.reserveCapacity(timers.count)
        for (place, timer) in timers.enumerated() {
            guard places.updateValue(place, forKey: timer.id) == nil else {
                // An id seen twice: the general way.
                self = TimerTable()
                timers.forEach { update($0) }
                return
            }
        }
    }

    public var count: Int { storage.count }
    public var isEmpty: Bool { storage.isEmpty }
    /// The timers, in no particular order.
    public var values: [RestTimer] { storage }
    /// The ids, in no particular order.
    public var keys: some Collection<TimerID> { places.keys }

    public subscript(id: TimerID) -> RestTimer? {
        places[id].map { storage[$0] }
    }

    public mutating func reserveCapacity(_ count: Int) {
        storage.reserveCapacity(count)
        places.reserveCapacity(count)
    }

    /// Stores `timer` under its id; returns the timer it replaced, if any.
    @discardableResult
    public mutating func update(_ timer: RestTimer) -> RestTimer? {
        if let place = places[timer.id] {
            let old = storage[place]
            storage[place] = timer
            return old
        }
        places[timer.id] = storage.count
        storage.append(timer)
        return nil
    }

    /// Removes the timer called `id`, if any, and returns it; the last timer takes its place.
    @discardableResult
    public mutating func remove(_ id: TimerID) -> RestTimer? {
        guard let place = places.removeValue(forKey: id) else { return nil }
        let removed = storage[place]
        let last = storage.removeLast()
        if place < storage.count {
            storage[place] = last
            places[last.id] = place
        }
        return removed
    }

    /// The same timers under the same ids, whatever their places.
    public static func == (lhs: TimerTable, rhs: TimerTable) -> Bool {
        lhs.count == rhs.count && lhs.storage.allSatisfy { rhs[$0.id] == $0 }
    }
}
