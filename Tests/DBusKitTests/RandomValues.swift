import SeededRandom

@testable import DBusKit

/// Values of random shape for the tests that compare two ways of writing or reading a body (a
/// fixed seed in each, so every run checks the same ones).
enum RandomValues {
    static func value(_ random: inout SplitMix64, depth: Int = 0) -> DBusValue {
        let kinds = depth < 3 ? 17 : 12
        switch random.next(upTo: kinds) {
        case 0: return .byte(UInt8(truncatingIfNeeded: random.next()))
        case 1: return .boolean(random.next() & 1 == 1)
        case 2: return .int16(Int16(truncatingIfNeeded: random.next()))
        case 3: return .uint16(UInt16(truncatingIfNeeded: random.next()))
        case 4: return .int32(Int32(truncatingIfNeeded: random.next()))
        case 5: return .uint32(UInt32(truncatingIfNeeded: random.next()))
        case 6: return .int64(Int64(bitPattern: random.next()))
        case 7: return .uint64(random.next())
        case 8: return .double(Double(random.next(upTo: 1000)) / 7)
        case 9: return .string(["", "a", "Bankdrücken ✓", "restd", "x y z"][random.next(upTo: 5)])
        case 10: return .objectPath(["/", "/io/restd/Rest1", "/a/b_1"][random.next(upTo: 3)])
        case 11: return .signature(["", "s", "a{sv}", "(iu)"][random.next(upTo: 4)])
        case 12: return .variant(value(&random, depth: depth + 1))
        case 13, 14:
            let element = value(&random, depth: depth + 1)
            let count = random.next(upTo: 4)
            // Elements of one type: the first one's shape, with basic values varied.
            let elements = (0..<count).map { index in index == 0 ? element : similar(to: element, &random) }
            return .array(element.type, count == 0 ? [] : elements)
        case 15:
            let key = value(&random, depth: 3)
            let value = value(&random, depth: depth + 1)
            let count = random.next(upTo: 3)
            return .dictionary(
                key: key.type, value: value.type,
                (0..<count).map { _ in .init(similar(to: key, &random), similar(to: value, &random)) })
        default:
            return .structure((0..<(1 + random.next(upTo: 3))).map { _ in value(&random, depth: depth + 1) })
        }
    }

    /// A value of the same type: basic ones drawn again, containers kept.
    private static func similar(to value: DBusValue, _ random: inout SplitMix64) -> DBusValue {
        guard value.type.isBasic else { return value }
        for _ in 0..<20 {
            let drawn = Self.value(&random, depth: 3)
            if drawn.type == value.type { return drawn }
        }
        return value
    }
}

extension SplitMix64 {
    /// A number in `0..<bound`, drawn as the modulo of the next value.
    mutating func next(upTo bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
