import RestCore
import SeededRandom
import Testing

@Suite("DigitText: numbers and separators written byte by byte")
struct DigitTextTests {
    /// What String(value), zero-padded, gives: 1,000 random numbers of every size, and the edges.
    @Test func numbersAreWhatStringGives() {
        var random = SplitMix64(state: 11)
        var values: [UInt64] = [0, 9, 10, 99, 100, UInt64.max]
        for _ in 0..<1_000 { values.append(random.next() >> (random.next() % 64)) }
        for value in values {
            let minimumDigits = Int(random.next() % 6)
            let plain = String(value)
            let expected = String(repeating: "0", count: max(0, minimumDigits - plain.count)) + plain
            let text = DigitText.make(capacity: 32) { $0.number(value, minimumDigits: minimumDigits) }
            #expect(text == expected)
        }
    }

    /// The clock as its rule says (m:ss below an hour, h:mm:ss from one on), joined by hand.
    @Test func clockFollowsTheRule() {
        var random = SplitMix64(state: 12)
        var values: [UInt64] = [0, 59, 60, 3_599, 3_600, 86_400, UInt64.max]
        for _ in 0..<1_000 { values.append(random.next() >> (random.next() % 64)) }
        for seconds in values {
            func two(_ value: UInt64) -> String { value < 10 ? "0\(value)" : "\(value)" }
            let hours = seconds / 3_600
            let expected =
                hours > 0
                ? "\(hours):\(two(seconds / 60 % 60)):\(two(seconds % 60))" : "\(seconds / 60):\(two(seconds % 60))"
            #expect(DigitText.clock(seconds: seconds) == expected)
        }
    }

    @Test func piecesFollowEachOther() {
        let text = DigitText.make(capacity: 16) { text in
            text.text("at ")
            text.number(7)
            text.character(":")
            text.number(5, minimumDigits: 2)
            text.character("Z")
        }
        #expect(text == "at 7:05Z" && text.utf8.count == 8)
    }
}
