import RestCore

/// restd's own messages, waiting their turn: its producers (the timers of `StateService`,
/// `RecoveryService`, the strap, the clock watcher, a reload) post here, and the messages are
/// carried out one after another, in the order posted, on the loop's one thread. A message posted
/// while another is carried out (a followed rest's heart-rate trace, as its end is announced)
/// waits until that one is done.
final class OccurrenceQueue {
    private var pending: [(occurrence: Occurrence, now: Instant)] = []
    private var draining = false
    /// Carries one message out (`StateService`). Set once.
    var carryOut: (Occurrence, Instant) -> Void = { _, _ in }

    /// Queues `occurrence`, which happened at `now`, and carries out what waits unless that is
    /// under way already.
    func post(_ occurrence: Occurrence, at now: Instant) {
        pending.append((occurrence, now))
        drain()
    }

    /// Runs `body` (a caller's command) with what is posted meanwhile held until it is done.
    func holding<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        guard !draining else { return try body() }
        draining = true
        defer {
            draining = false
            drain()
        }
        return try body()
    }

    private func drain() {
        guard !draining else { return }
        draining = true
        defer { draining = false }
        while !pending.isEmpty {
            let next = pending.removeFirst()
            carryOut(next.occurrence, next.now)
        }
    }
}
