import RestCore
import SeededRandom
import Testing

/// Drives a stream the way the daemon does: offers on every change, fires its one timer when due.
private struct Simulation {
    var stream: ThrottledStream<Int>
    var current = 0
    var timerDue: USec?
    var publications: [(at: USec, value: Int)] = []

    init(interval: USec) { stream = ThrottledStream(intervalUSec: interval) }

    mutating func handle(_ action: ThrottledStream<Int>.Action, now: USec) {
        switch action {
        case .publish(let value): publications.append((now, value))
        case .schedule(let due): timerDue = due
        case .none: break
        }
    }

    /// Runs the timer if it is due by `now`.
    mutating func advance(to now: USec) {
        if let due = timerDue, due <= now {
            timerDue = nil
            handle(stream.fire(current, now: due), now: due)
        }
    }

    mutating func update(_ value: Int, now: USec) {
        advance(to: now)
        current = value
        handle(stream.offer(current, now: now), now: now)
    }
}

@Suite struct ThrottledStreamTests {
    @Test func theLeadingEdgePublishesAtOnce() {
        var stream = ThrottledStream<Int>(intervalUSec: 500_000)
        let result1 = stream.offer(1, now: 10)
        #expect(result1 == .publish(1))
    }

    @Test func updatesWithinTheIntervalCoalesceIntoOneTrailingPublication() {
        var stream = ThrottledStream<Int>(intervalUSec: 500_000)
        _ = stream.offer(1, now: 0)
        let result2 = stream.offer(2, now: 100)
        #expect(result2 == .schedule(500_000))
        let result3 = stream.offer(3, now: 200)
        #expect(result3 == .none, "one timer per stream, not one per update")
        let result4 = stream.fire(3, now: 500_000)
        #expect(result4 == .publish(3))
    }

    @Test func anUnchangedSnapshotPublishesNothing() {
        var stream = ThrottledStream<Int>(intervalUSec: 500_000)
        _ = stream.offer(1, now: 0)
        let same = stream.offer(1, now: 1_000_000)
        #expect(same == .none)
        // Changed and changed back within the interval: the trailing edge has nothing new.
        let changed = stream.offer(2, now: 100)
        #expect(changed == .schedule(500_000))
        let back = stream.offer(1, now: 200)
        #expect(back == .none)
        let trailing = stream.fire(1, now: 500_000)
        #expect(trailing == .none)
    }

    @Test func changingTheRateMovesTheTrailingEdge() {
        var stream = ThrottledStream<Int>(intervalUSec: 1_000_000)
        _ = stream.offer(1, now: 0)
        let result8 = stream.offer(2, now: 10)
        #expect(result8 == .schedule(1_000_000))
        let result9 = stream.setInterval(100_000)
        #expect(result9 == .schedule(100_000))
    }

    @Test func publishImmediatelyIgnoresTheRateButNotRepetition() {
        var stream = ThrottledStream<Int>(intervalUSec: 1_000_000)
        _ = stream.offer(1, now: 0)
        let result10 = stream.publishImmediately(0, now: 10)
        #expect(result10 == .publish(0))
        let result11 = stream.publishImmediately(0, now: 20)
        #expect(result11 == .none)
    }

    @Test("random update sequences: spacing, latest value, final value, no repeats", arguments: 0..<200)
    func randomSequences(seed: UInt64) {
        var random = SplitMix64(state: seed)
        let interval = USec.random(in: 10_000...2_000_000, using: &random)
        var sim = Simulation(interval: interval)
        var now: USec = USec.random(in: 0...1_000_000, using: &random)
        var history: [(at: USec, value: Int)] = []  // every value the producer set, in order
        for _ in 0..<Int.random(in: 1...300, using: &random) {
            // Bursts of fast updates, and now and then a long pause.
            now +=
                Bool.random(using: &random)
                ? USec.random(in: 0...interval / 4 + 1, using: &random)
                : USec.random(in: 0...3 * interval, using: &random)
            let value = Int.random(in: 0...5, using: &random)
            sim.update(value, now: now)
            history.append((now, value))
        }
        let lastUpdate = now
        sim.advance(to: USec.max)

        let publications = sim.publications
        for (earlier, later) in zip(publications, publications.dropFirst()) {
            #expect(later.at - earlier.at >= interval, "publications at least one interval apart")
            #expect(later.value != earlier.value, "no publication without a change")
        }
        for publication in publications {
            let latest = history.last { $0.at <= publication.at }!
            #expect(publication.value == latest.value, "each publication is the latest value at that moment")
        }
        let final = history.last!.value
        if let last = publications.last {
            #expect(last.value == final, "the final value is published")
            #expect(last.at <= lastUpdate + interval, "within one interval of the last update")
        } else {
            #expect(final == 0, "nothing published only when nothing ever changed")
        }
    }
}
