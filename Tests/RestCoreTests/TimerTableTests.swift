import RestCore
import SeededRandom
import Testing

/// The book's dense table of timers against a plain dictionary, over seeded random updates and
/// removals (a removal moves the last timer into the freed place).
@Suite struct TimerTableTests {
    private func timer(_ id: TimerID, _ version: USec) -> RestTimer {
        RestTimer(
            id: id, label: "v\(version)", next: "", notify: true, baseDurationUSec: 1_000_000, state: .running,
            durationUSec: 1_000_000, startedAtUSec: version, endsAtUSec: version + 1_000_000, remainingUSec: 0,
            expiredAtUSec: 0, updatedAtUSec: version, deadlineBoottime: version)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func agreesWithADictionary(seed: UInt64) {
        var random = SplitMix64(state: seed)
        let names = (0..<25).map { tid("t\($0)") }
        var table = TimerTable()
        var model: [TimerID: RestTimer] = [:]
        for step in 0..<3_000 {
            let id = names.randomElement(using: &random)!
            if Int.random(in: 0..<3, using: &random) == 0 {
                #expect(table.remove(id) == model.removeValue(forKey: id), "step \(step)")
            } else {
                let new = timer(id, USec(step))
                #expect(table.update(new) == model.updateValue(new, forKey: id), "step \(step)")
            }
            #expect(table.count == model.count && table.isEmpty == model.isEmpty)
            #expect(names.allSatisfy { table[$0] == model[$0] }, "step \(step)")
            #expect(Set(table.keys) == Set(model.keys))
            #expect(table.values.map(\.id).sorted() == model.keys.sorted())
        }
    }

    /// A table made from an array (a restored book) is the table that updating with each timer in
    /// turn makes, also when ids repeat (the last one is kept); and it goes on updating as one.
    @Test(arguments: [4, 5, 6] as [UInt64])
    func madeFromAnArrayAsByUpdates(seed: UInt64) {
        var random = SplitMix64(state: seed)
        let names = (0..<40).map { tid("t\($0)") }
        for repeats in [false, true] {
            let ids =
                repeats ? (0..<60).map { _ in names.randomElement(using: &random)! } : names.shuffled(using: &random)
            let timers = ids.enumerated().map { timer($0.element, USec($0.offset)) }
            var made = TimerTable(timers)
            var updated = TimerTable()
            timers.forEach { updated.update($0) }
            #expect(made == updated && made.count == Set(ids).count, "repeats: \(repeats)")
            #expect(names.allSatisfy { made[$0] == updated[$0] })
            for step in 0..<200 {
                let id = names.randomElement(using: &random)!
                if Bool.random(using: &random) {
                    #expect(made.remove(id) == updated.remove(id))
                } else {
                    let new = timer(id, USec(1_000 + step))
                    #expect(made.update(new) == updated.update(new))
                }
                #expect(made == updated && names.allSatisfy { made[$0] == updated[$0] }, "step \(step)")
            }
        }
    }

    @Test func equalWhateverThePlaces() {
        var forward = TimerTable()
        var backward = TimerTable()
        let timers = (0..<5).map { timer(tid("t\($0)"), USec($0)) }
        timers.forEach { forward.update($0) }
        timers.reversed().forEach { backward.update($0) }
        #expect(forward == backward)
        backward.update(timer(tid("t2"), 99))
        #expect(forward != backward)
    }
}
