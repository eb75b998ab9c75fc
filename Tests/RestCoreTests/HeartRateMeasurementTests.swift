import RestCore
import SeededRandom
import Testing

/// The Heart Rate Measurement characteristic (0x2A37) byte by byte, as the Heart Rate Service
/// specification lays it out, with values real straps send.
@Suite struct HeartRateMeasurementTests {
    typealias M = HeartRateMeasurement

    @Test(
        "values real straps send",
        arguments: [
            // Polar H10 (flags 0x10: uint8 value, RR present): 72 bpm, one RR interval of 812/1024 s.
            ([0x10, 0x48, 0x2C, 0x03], M(beatsPerMinute: 72, rrIntervals: [812])),
            // Polar H10 with two beats in one notification.
            ([0x10, 0x49, 0x5E, 0x03, 0x96, 0x03], M(beatsPerMinute: 73, rrIntervals: [862, 918])),
            // Polar H10 at 195 bpm: three beats in one second.
            ([0x10, 0xC3, 0x3C, 0x01, 0x3C, 0x01, 0x3C, 0x01], M(beatsPerMinute: 195, rrIntervals: [316, 316, 316])),
            // Polar H10 at 40 bpm in a second without a beat: RR flag set, no interval.
            ([0x10, 0x28], M(beatsPerMinute: 40, rrIntervals: [])),
            // Polar H7 (flags 0x16: contact supported and detected, RR present): 77 bpm, 790/1024 s.
            ([0x16, 0x4D, 0x16, 0x03], M(beatsPerMinute: 77, contact: .detected, rrIntervals: [790])),
            // A plain sensor: flags 0, uint8 value.
            ([0x00, 0x3C], M(beatsPerMinute: 60)),
            // uint16 value (flags bit 0), little-endian: 0x008C = 140.
            ([0x01, 0x8C, 0x00], M(beatsPerMinute: 140)),
            // uint16 value whose high byte counts: 0x00FA = 250, the highest taken.
            ([0x01, 0xFA, 0x00], M(beatsPerMinute: 250)),
            // Energy expended (bit 3) comes before the RR intervals (bit 4): 298 kJ, then 984/1024 s.
            ([0x18, 0x5A, 0x2A, 0x01, 0xD8, 0x03], M(beatsPerMinute: 90, energyExpendedKJ: 298, rrIntervals: [984])),
            // Everything at once: uint16 value, contact detected, energy, two RR intervals.
            (
                [0x1F, 0x8C, 0x00, 0x10, 0x27, 0x00, 0x04, 0xB4, 0x01],
                M(beatsPerMinute: 140, contact: .detected, energyExpendedKJ: 10_000, rrIntervals: [1024, 436])
            ),
            // Energy without RR.
            ([0x08, 0x64, 0xFF, 0xFF], M(beatsPerMinute: 100, energyExpendedKJ: 65_535)),
            // Contact not supported (bit 2 clear): bit 1 means nothing.
            ([0x02, 0x50], M(beatsPerMinute: 80, contact: .unsupported)),
            // Bytes after the announced fields (a later version of the characteristic) are ignored.
            ([0x00, 0x50, 0x99], M(beatsPerMinute: 80)),
        ] as [([UInt8], M)])
    func parses(bytes: [UInt8], expected: M) throws {
        #expect(try M.parse(bytes) == expected)
    }

    @Test(
        "contact supported but not detected: no heart rate, whatever value it carries",
        arguments: [
            [0x04, 0x00] as [UInt8],  // a Polar strap off the skin sends 0 bpm
            [0x04, 0x48],  // or its last value
            [0x14, 0x00, 0x2C, 0x03],  // with RR
            [0x05, 0xFF, 0x00],  // uint16, above the limit: still just "no contact"
        ])
    func contactLost(bytes: [UInt8]) throws {
        let measurement = try M.parse(bytes)
        #expect(measurement.contact == .lost)
        #expect(measurement.beatsPerMinute == nil)
    }

    @Test(
        "values that cannot be a heart rate are refused with the reason",
        arguments: [
            ([], M.Problem.tooShort(flags: 0, needed: 2, got: 0)),
            ([0x00], .tooShort(flags: 0x00, needed: 2, got: 1)),
            ([0x01, 0x8C], .tooShort(flags: 0x01, needed: 3, got: 2)),
            ([0x08, 0x5A, 0x2A], .tooShort(flags: 0x08, needed: 4, got: 3)),
            ([0x19, 0x5A, 0x00, 0x2A], .tooShort(flags: 0x19, needed: 5, got: 4)),
            ([0x00, 0x00], .zeroBeatsPerMinute),
            ([0x06, 0x00], .zeroBeatsPerMinute),  // contact detected and 0 bpm
            ([0x01, 0x00, 0x00], .zeroBeatsPerMinute),
            ([0x00, 0xFB], .aboveLimit(251)),
            ([0x01, 0x2C, 0x01], .aboveLimit(300)),  // uint16 0x012C
            ([0x01, 0xFF, 0xFF], .aboveLimit(65_535)),
        ] as [([UInt8], M.Problem)])
    func refuses(bytes: [UInt8], problem: M.Problem) {
        #expect(throws: problem) { try M.parse(bytes) }
    }

    @Test func problemsReadAsSentences() {
        #expect(
            M.Problem.tooShort(flags: 0x19, needed: 5, got: 4).description
                == "a heart rate measurement with flags 0x19 needs at least 5 bytes, got 4")
        #expect(M.Problem.aboveLimit(300).description == "a heart rate of 300 bpm is above 250 bpm")
    }

    @Test(
        "an odd byte at the end is half an RR interval: it goes, the heart rate and the whole intervals stay",
        arguments: [
            ([0x10, 0x48, 0x2C] as [UInt8], 72, [Int]()),
            ([0x10, 0x3C, 0x00, 0x04, 0x01], 60, [1024]),
            ([0x18, 0x48, 0x2A, 0x01, 0xD8, 0x03, 0x01], 72, [984]),
        ])
    func oddTrailingByte(bytes: [UInt8], bpm: Int, intervals: [Int]) throws {
        let measurement = try M.parse(bytes)
        #expect(measurement.beatsPerMinute == bpm)
        #expect(measurement.rrIntervals == intervals)
        #expect(measurement.truncatedRRInterval)
        #expect(try !M.parse(Array(bytes.dropLast())).truncatedRRInterval)
    }

    @Test("RR intervals in milliseconds, rounded: 1024 units are one second")
    func rrMilliseconds() throws {
        let measurement = try M.parse([0x10, 0x49, 0x00, 0x04, 0x2C, 0x03, 0x01, 0x00])
        #expect(measurement.rrIntervals == [1024, 812, 1])
        #expect(measurement.rrIntervalsMilliseconds == [1000, 793, 1])
    }

    @Test("every short prefix of a valid value is refused, never a crash")
    func prefixes() {
        let full: [UInt8] = [0x1F, 0x8C, 0x00, 0x10, 0x27, 0x00, 0x04, 0xB4, 0x01]
        for length in 0..<5 {
            #expect(throws: M.Problem.self) { try M.parse(Array(full.prefix(length))) }
        }
        // Random bytes of every length: a value or a reason, nothing else.
        var random = SplitMix64(state: 14)
        for _ in 0..<2_000 {
            let bytes = (0..<Int(random.next() % 12)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            if let measurement = try? M.parse(bytes), let bpm = measurement.beatsPerMinute {
                #expect((1...250).contains(bpm))
            }
        }
    }
}

@Suite struct StrapChoiceTests {
    @Test func readsTheThreeForms() {
        #expect(StrapChoice("auto") == .auto)
        #expect(StrapChoice("off") == .off)
        #expect(StrapChoice("a0:9e:1a:12:34:5f") == .address("A0:9E:1A:12:34:5F"))
        for bad in [
            "", "Auto", "on", "A0:9E:1A:12:34", "A0:9E:1A:12:34:5G", "A0-9E-1A-12-34-5F", "A0:9E:1A:12:34:5F:00",
            "A0:9E:1A:12:3:45F",
        ] {
            #expect(StrapChoice(bad) == nil, "\(bad)")
        }
    }
}
