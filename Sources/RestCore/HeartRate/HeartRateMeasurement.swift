/// One value of the Heart Rate Measurement characteristic (0x2A37), read exactly as the Heart
/// Rate Service specification lays it out: a flags byte, the heart rate (uint8, or uint16
/// little-endian when flags bit 0 is set), Energy Expended (uint16, when bit 3 is set), then zero
/// or more RR intervals (uint16 each, in 1/1024 s, when bit 4 is set) up to the end of the value.
/// An odd byte left at the end is half an RR interval: it is dropped, and the heart rate and the
/// whole intervals before it are kept (`truncatedRRInterval` says so). Pure: no I/O, every
/// refusal a typed reason.
public struct HeartRateMeasurement: Sendable, Equatable {
    /// Flags bits 1–2: bit 2 says the sensor can tell skin contact, bit 1 says it has it.
    public enum Contact: Sendable, Equatable {
        /// The sensor does not report contact (bit 2 clear).
        case unsupported
        case detected
        /// The strap is off the skin or dry: its heart rate means nothing.
        case lost
    }

    /// Beats per minute; nil when contact is lost (what the sensor sends then is not a heart rate).
    public var beatsPerMinute: Int?
    public var contact: Contact
    /// Cumulative energy expended since the last reset, in kilojoules.
    public var energyExpendedKJ: Int?
    /// RR intervals (time between two beats) in the sensor's unit, 1/1024 s, oldest first.
    public var rrIntervals: [Int]
    /// The value ended in half an RR interval, which was dropped.
    public var truncatedRRInterval: Bool

    public init(
        beatsPerMinute: Int?, contact: Contact = .unsupported, energyExpendedKJ: Int? = nil, rrIntervals: [Int] = [],
        truncatedRRInterval: Bool = false
    ) {
        self.beatsPerMinute = beatsPerMinute
        self.contact = contact
        self.energyExpendedKJ = energyExpendedKJ
        self.rrIntervals = rrIntervals
        self.truncatedRRInterval = truncatedRRInterval
    }

    /// The RR intervals in whole milliseconds (rounded), as the history stores them.
    public var rrIntervalsMilliseconds: [Int] {
        rrIntervals.map { ($0 * 1000 + 512) / 1024 }
    }

    /// The highest heart rate taken as real; above it the value is a sensor fault.
    public static let maxBeatsPerMinute = 250

    /// Why a value was dropped.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// Shorter than its flags promise: `needed` bytes for the fields they announce.
        case tooShort(flags: UInt8, needed: Int, got: Int)
        case zeroBeatsPerMinute
        case aboveLimit(Int)

        public var description: String {
            switch self {
            case .tooShort(let flags, let needed, let got):
                "a heart rate measurement with flags 0x\(hex(flags)) needs at least \(needed) bytes, got \(got)"
            case .zeroBeatsPerMinute:
                "a heart rate of 0 bpm with contact is not a heart rate"
            case .aboveLimit(let bpm):
                "a heart rate of \(bpm) bpm is above \(HeartRateMeasurement.maxBeatsPerMinute) bpm"
            }
        }
    }

    /// Reads one characteristic value.
    public static func parse(_ bytes: [UInt8]) throws(Problem) -> HeartRateMeasurement {
        guard let flags = bytes.first else { throw .tooShort(flags: 0, needed: 2, got: 0) }
        let wideValue = flags & 0x01 != 0
        let contactSupported = flags & 0x04 != 0
        let contactDetected = flags & 0x02 != 0
        let hasEnergy = flags & 0x08 != 0
        let hasRR = flags & 0x10 != 0

        let needed = 1 + (wideValue ? 2 : 1) + (hasEnergy ? 2 : 0)
        guard bytes.count >= needed else { throw .tooShort(flags: flags, needed: needed, got: bytes.count) }

        var offset = 1
        let value: Int
        if wideValue {
            value = uint16(bytes, at: offset)
            offset += 2
        } else {
            value = Int(bytes[offset])
            offset += 1
        }
        var energy: Int?
        if hasEnergy {
            energy = uint16(bytes, at: offset)
            offset += 2
        }
        var intervals: [Int] = []
        var truncated = false
        if hasRR {
            // A lost byte breaks one interval, not the heart rate the strap measured.
            truncated = (bytes.count - offset) % 2 != 0
            intervals.reserveCapacity((bytes.count - offset) / 2)
            while offset + 1 < bytes.count {
                intervals.append(uint16(bytes, at: offset))
                offset += 2
            }
        }
        // Bytes after the last field the flags announce are ignored: later versions may add fields.

        let contact: Contact = contactSupported ? (contactDetected ? .detected : .lost) : .unsupported
        var beats: Int?
        if contact != .lost {
            guard value > 0 else { throw .zeroBeatsPerMinute }
            guard value <= maxBeatsPerMinute else { throw .aboveLimit(value) }
            beats = value
        }
        return HeartRateMeasurement(
            beatsPerMinute: beats, contact: contact, energyExpendedKJ: energy,
            rrIntervals: intervals, truncatedRRInterval: truncated)
    }

    private static func uint16(_ bytes: [UInt8], at offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
    }
}

private func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return digits.count == 1 ? "0" + digits : digits
}
