import RestCore
import TestClock
import Testing

@Suite struct LiveActivityTests {
    @Test func knownKeysMergeLatestWins() throws {
        var live = LiveActivity()
        let result1 = try live.update(["heart_rate": .integer(120), "exercise": .string("Squat")], boottime: 0)
        #expect(result1)
        let result2 = try live.update(["heart_rate": .integer(142)], boottime: 1)
        #expect(result2)
        #expect(live.fields == ["heart_rate": .integer(142), "exercise": .string("Squat")])
    }

    @Test func anUpdateThatChangesNothingReportsNoChangeButRefreshesTheHeartRate() throws {
        var live = LiveActivity()
        _ = try live.update(["heart_rate": .integer(120)], boottime: 0)
        let result3 = try live.update(["heart_rate": .integer(120)], boottime: 5_000_000)
        #expect(result3 == false)
        #expect(live.staleAt == 15_000_000)
    }

    @Test func aStaleHeartRateIsRemoved() throws {
        var live = LiveActivity()
        _ = try live.update(["heart_rate": .integer(120), "workout": .string("Legs")], boottime: 0)
        let result4 = live.removeStale(boottime: 9_999_999)
        #expect(result4 == false)
        let result5 = live.removeStale(boottime: 10_000_000)
        #expect(result5)
        #expect(live.fields == ["workout": .string("Legs")])
        #expect(live.staleAt == nil)
    }

    @Test func aNewStalenessAppliesFromTheNextRefreshOn() throws {
        var live = LiveActivity()
        _ = try live.update(["heart_rate": .integer(120)], boottime: 0)
        #expect(live.staleAt == 10_000_000)
        live.setHeartRateStaleUSec(1_000_000)
        #expect(live.limits.heartRateStaleUSec == 1_000_000)
        // The value already shown keeps the deadline it came with…
        #expect(live.staleAt == 10_000_000)
        let early = live.removeStale(boottime: 5_000_000)
        #expect(early == false)
        // …and the next refresh gets the new interval.
        _ = try live.update(["heart_rate": .integer(121)], boottime: 6_000_000)
        #expect(live.staleAt == 7_000_000)
        let removed = live.removeStale(boottime: 7_000_000)
        #expect(removed)
        #expect(live.fields.isEmpty)
        // Other fields do not refresh the heart rate's deadline.
        _ = try live.update(["heart_rate": .integer(122)], boottime: 8_000_000)
        _ = try live.update(["exercise": .string("Squat")], boottime: 8_500_000)
        #expect(live.staleAt == 9_000_000)
    }

    /// A refresh moves the deadline on from the refresh: the first value's deadline passes with
    /// the heart rate still shown, and it goes exactly one staleness interval after the refresh.
    @Test func aRefreshPushesTheStalenessOn() throws {
        let clock = ManualTimeSource()
        var live = LiveActivity()
        live.setHeartRateStaleUSec(4 * second)
        _ = try live.update(["heart_rate": .integer(131)], boottime: clock.now().boottime)
        clock.advance(1 * second)
        _ = try live.update(["heart_rate": .integer(132)], boottime: clock.now().boottime)
        let refreshed = clock.now().boottime
        clock.advance(3 * second)
        let atTheFirstDeadline = live.removeStale(boottime: clock.now().boottime)
        #expect(atTheFirstDeadline == false)
        #expect(live.fields == ["heart_rate": .integer(132)])
        #expect(live.staleAt == refreshed + 4 * second)
        clock.advance(1 * second - 1)
        let justBefore = live.removeStale(boottime: clock.now().boottime)
        #expect(justBefore == false)
        clock.advance(1)
        let atTheRefreshDeadline = live.removeStale(boottime: clock.now().boottime)
        #expect(atTheRefreshDeadline)
        #expect(live.fields.isEmpty)
    }

    @Test(
        "refused updates change nothing",
        arguments: [
            ["heart_rate": LiveValue.integer(19)],
            ["heart_rate": .integer(251)],
            ["heart_rate": .string("fast")],
            ["heart_rate": .double(120)],
            ["progress_done": .integer(-1)],
            ["progress_total": .integer(1001)],
            ["progress_done": .integer(6), "progress_total": .integer(5)],
            ["exercise": .integer(1)],
            ["exercise": .string(String(repeating: "a", count: 257))],
            ["workout": .string("bell\u{7}")],
            ["colour": .string("red")],
            ["x_": .string("empty suffix")],
            ["x_UPPER": .string("no")],
            ["x_" + String(repeating: "a", count: 31): .boolean(true)],
            ["x_nan": .double(.nan)],
            ["heart_rate": .integer(100), "bogus": .boolean(true)],
        ] as [[String: LiveValue]])
    func refused(_ update: [String: LiveValue]) throws {
        var live = LiveActivity()
        _ = try live.update(["exercise": .string("Squat"), "progress_total": .integer(5)], boottime: 0)
        let before = live
        #expect(throws: LiveError.self) { try live.update(update, boottime: 1) }
        #expect(live == before)
    }

    @Test func progressDoneMayNotPassTheTotalAlreadySet() throws {
        var live = LiveActivity()
        _ = try live.update(["progress_total": .integer(3)], boottime: 0)
        #expect(throws: LiveError.invalidArgs("progress_done 4 is more than progress_total 3")) {
            try live.update(["progress_done": .integer(4)], boottime: 0)
        }
    }

    @Test func customKeysAreCappedAtSixteen() throws {
        var live = LiveActivity()
        var keys: [String: LiveValue] = [:]
        for i in 0..<16 { keys["x_k\(i)"] = .integer(Int64(i)) }
        _ = try live.update(keys, boottime: 0)
        #expect(throws: LiveError.self) { try live.update(["x_one_more": .boolean(true)], boottime: 0) }
        _ = try live.update(["x_k0": .string("replacing is fine"), "x_k1": .double(1.5)], boottime: 0)
    }

    @Test func aRefusedUpdateNamesItsFirstBadKeyInKeyOrder() throws {
        for _ in 0..<20 {
            var live = LiveActivity()
            // Dictionaries iterate in an order of their own: the key named must not follow it.
            let update: [String: LiveValue] = [
                "x_ok": .integer(1), "zebra": .boolean(true), "bogus": .boolean(true), "heart_rate": .integer(5),
            ]
            do {
                _ = try live.update(update, boottime: 0)
                Issue.record("accepted")
            } catch {
                guard case .invalidArgs(let message) = error else { Issue.record("\(error)"); return }
                #expect(message.contains("'bogus'"), "\(message)")
            }
        }
    }

    @Test func progressRulesAgainstWhatIsAlreadySet() throws {
        var live = LiveActivity()
        _ = try live.update(["progress_done": .integer(3), "progress_total": .integer(5)], boottime: 0)
        #expect(throws: LiveError.invalidArgs("progress_done 3 is more than progress_total 2")) {
            try live.update(["progress_total": .integer(2)], boottime: 1)
        }
        // Without a total, any count goes.
        let changed = try live.update(["progress_done": .integer(9)], removing: ["progress_total"], boottime: 1)
        #expect(changed)
        #expect(live.fields == ["progress_done": .integer(9)])
    }

    @Test func aRefusedUpdateRemovesNothingEither() throws {
        var live = LiveActivity()
        var keys: [String: LiveValue] = [:]
        for i in 0..<16 { keys["x_k\(i)"] = .integer(Int64(i)) }
        _ = try live.update(keys, boottime: 0)
        let before = live
        #expect(throws: LiveError.self) {
            try live.update(["x_a": .boolean(true), "x_b": .boolean(true)], removing: ["x_k3"], boottime: 1)
        }
        #expect(live == before)
    }

    @Test func removalAndSettingInOneUpdate() throws {
        var live = LiveActivity()
        _ = try live.update(["exercise": .string("Squat"), "x_a": .integer(1)], boottime: 0)
        // A key both removed and set keeps the value set; nothing else changed.
        let same = try live.update(["exercise": .string("Squat")], removing: ["exercise"], boottime: 1)
        #expect(same == false)
        let absent = try live.update([:], removing: ["workout"], boottime: 1)
        #expect(absent == false)
        let removed = try live.update([:], removing: ["x_a"], boottime: 1)
        #expect(removed)
        #expect(live.fields == ["exercise": .string("Squat")])
    }

    @Test func removingCustomKeysMakesRoomInTheSameUpdate() throws {
        var live = LiveActivity()
        var keys: [String: LiveValue] = [:]
        for i in 0..<16 { keys["x_k\(i)"] = .integer(Int64(i)) }
        _ = try live.update(keys, boottime: 0)
        let changed = try live.update(["x_new": .boolean(true)], removing: ["x_k3"], boottime: 1)
        #expect(changed)
        #expect(live.fields["x_new"] == .boolean(true) && live.fields["x_k3"] == nil && live.fields.count == 16)
    }

    @Test func customKeysFollowTheirPattern() {
        for key in ["x_a", "x_0_9", "x_" + String(repeating: "z", count: 30)] {
            #expect(LiveKey.isCustom(key), "\(key)")
        }
        for key in ["x_", "x_A", "y_a", "xa", "x-a", "x_é", "x_" + String(repeating: "z", count: 31), ""] {
            #expect(!LiveKey.isCustom(key), "\(key)")
        }
    }

    @Test func endClearsEverything() throws {
        var live = LiveActivity()
        let result6 = live.end()
        #expect(result6 == false)
        _ = try live.update(["heart_rate": .integer(100)], boottime: 0)
        let result7 = live.end()
        #expect(result7)
        #expect(live.fields.isEmpty && live.staleAt == nil)
    }
}
