import RestCore
import Testing

/// The live activity with restd's own Bluetooth strap as one more producer.
@Suite struct LiveActivityStrapTests {
    let polar = HeartRateReading(
        address: "A0:9E:1A:12:34:56", sensorName: "Polar H10 1234",
        measurement: HeartRateMeasurement(beatsPerMinute: 72, contact: .detected, rrIntervals: [812]),
        batteryPercent: 80)

    @Test func aReadingSetsTheStrapFields() {
        var live = LiveActivity()
        let r1 = live.applyStrapReading(polar.liveFields, boottime: 0)

        #expect(r1)
        #expect(
            live.fields == [
                "heart_rate": .integer(72), "heart_rate_sensor": .string("Polar H10 1234"),
                "heart_rate_contact": .boolean(true), "sensor_battery": .integer(80),
            ])
        // The same reading again changes nothing, but refreshes the staleness.
        let r2 = live.applyStrapReading(polar.liveFields, boottime: 4 * second)

        #expect(r2 == false)
        #expect(live.staleAt == 14 * second)
    }

    @Test func aStrapWithoutContactOrBatteryReportsNeither() {
        let plain = HeartRateReading(
            address: "X", sensorName: "TICKR", measurement: HeartRateMeasurement(beatsPerMinute: 60))
        #expect(plain.liveFields == ["heart_rate": .integer(60), "heart_rate_sensor": .string("TICKR")])
    }

    @Test("a producer removing the strap's fields: nothing of the strap's is left to go stale")
    func producerRemovesStrapFields() throws {
        var live = LiveActivity()
        _ = live.applyStrapReading(polar.liveFields, boottime: 0)
        var off = polar
        off.measurement = HeartRateMeasurement(beatsPerMinute: nil, contact: .lost)
        _ = live.applyStrapReading(off.liveFields, boottime: 1 * second)  // its fields now stale at 11 s
        let strapOnly: Set<String> = ["heart_rate_sensor", "heart_rate_contact", "sensor_battery"]
        #expect(try live.update([:], removing: strapOnly, boottime: 2 * second))
        #expect(live.fields == ["heart_rate": .integer(72)])
        #expect(live.staleAt == 10 * second)  // the heart rate's own, as it came
        let removedHeartRate = live.removeStale(boottime: 10 * second)
        #expect(removedHeartRate)
        #expect(live.fields.isEmpty)
        #expect(live.staleAt == nil)
        let removedMore = live.removeStale(boottime: 11 * second)
        #expect(removedMore == false)
    }

    @Test("contact lost: contact false at once, the heart rate stays until it goes stale")
    func contactLost() {
        var live = LiveActivity()
        _ = live.applyStrapReading(polar.liveFields, boottime: 0)
        var off = polar
        off.measurement = HeartRateMeasurement(beatsPerMinute: nil, contact: .lost)
        let r3 = live.applyStrapReading(off.liveFields, boottime: 1 * second)

        #expect(r3)
        #expect(live.fields["heart_rate_contact"] == .boolean(false))
        #expect(live.fields["heart_rate"] == .integer(72))
        #expect(live.staleAt == 10 * second)
        let r4 = live.removeStale(boottime: 10 * second)

        #expect(r4)
        #expect(live.fields["heart_rate"] == nil)
        #expect(live.fields["heart_rate_contact"] == .boolean(false))  // still reported, 1 s later than the value
        #expect(live.staleAt == 11 * second)
    }

    @Test("a strap that stops sending: every field it set goes stale, the producer's stay")
    func strapGoesStale() throws {
        var live = LiveActivity()
        _ = try live.update(["exercise": .string("Squat")], boottime: 0)
        _ = live.applyStrapReading(polar.liveFields, boottime: 1 * second)
        #expect(live.staleAt == 11 * second)
        let r5 = live.removeStale(boottime: 11 * second)

        #expect(r5)
        #expect(live.fields == ["exercise": .string("Squat")])
        #expect(live.staleAt == nil)
    }

    @Test("a producer's heart_rate wins for 10 s and withdraws the strap's fields")
    func producerPrecedence() throws {
        var live = LiveActivity()
        _ = live.applyStrapReading(polar.liveFields, boottime: 0)
        // The same value as the strap's is still a change: the strap's fields go.
        let override = try live.update(["heart_rate": polar.liveFields["heart_rate"]!], boottime: 1 * second)
        #expect(override)
        _ = try live.update(["heart_rate": .integer(130)], boottime: 1 * second)
        #expect(live.fields == ["heart_rate": .integer(130)])
        // The strap keeps sending; it is set aside until 10 s after the producer's value.
        let r6 = live.applyStrapReading(polar.liveFields, boottime: 5 * second)

        #expect(r6 == false)
        let r7 = live.applyStrapReading(polar.liveFields, boottime: 11 * second - 1)

        #expect(r7 == false)
        #expect(live.fields == ["heart_rate": .integer(130)])
        let r8 = live.applyStrapReading(polar.liveFields, boottime: 11 * second)

        #expect(r8)
        #expect(live.fields["heart_rate"] == .integer(72))
        #expect(live.fields["heart_rate_sensor"] == .string("Polar H10 1234"))
    }

    @Test("a reading sets a strap's fields only")
    func onlyStrapFields() {
        var live = LiveActivity()
        var fields = polar.liveFields
        fields["progress_total"] = .integer(1)
        fields["x_mine"] = .boolean(true)
        _ = live.applyStrapReading(fields, boottime: 0)
        #expect(live.fields == polar.liveFields)
    }

    @Test("other producer fields do not set the strap aside")
    func otherFieldsDoNotOverride() throws {
        var live = LiveActivity()
        _ = live.applyStrapReading(polar.liveFields, boottime: 0)
        _ = try live.update(["progress_done": .integer(1), "progress_total": .integer(5)], boottime: 1 * second)
        var faster = polar
        faster.measurement.beatsPerMinute = 90
        let r9 = live.applyStrapReading(faster.liveFields, boottime: 2 * second)

        #expect(r9)
        #expect(live.fields["heart_rate"] == .integer(90))
        #expect(live.fields["progress_done"] == .integer(1))
    }

    @Test("a field that does not validate is left out; the rest is applied")
    func invalidFieldsLeftOut() {
        var live = LiveActivity()
        let badName = HeartRateReading(
            address: "X", sensorName: "evil\u{1B}[2J", measurement: HeartRateMeasurement(beatsPerMinute: 70),
            batteryPercent: 140)
        let r10 = live.applyStrapReading(badName.liveFields, boottime: 0)

        #expect(r10)
        #expect(live.fields == ["heart_rate": .integer(70)])
    }

    @Test func endClearsTheStrapToo() {
        var live = LiveActivity()
        _ = live.applyStrapReading(polar.liveFields, boottime: 0)
        let r11 = live.end()

        #expect(r11)
        #expect(live.fields.isEmpty)
        #expect(live.staleAt == nil)
        // The next reading starts it again: the strap is a producer like any other.
        let r12 = live.applyStrapReading(polar.liveFields, boottime: 1 * second)

        #expect(r12)
    }

    @Test("producers may set the strap keys themselves, validated")
    func producersSetStrapKeys() throws {
        var live = LiveActivity()
        _ = try live.update(
            [
                "heart_rate_sensor": .string("Phone bridge"), "heart_rate_contact": .boolean(true),
                "sensor_battery": .integer(55),
            ], boottime: 0)
        #expect(live.fields.count == 3)
        #expect(throws: LiveError.self) { _ = try live.update(["sensor_battery": .integer(101)], boottime: 0) }
        #expect(throws: LiveError.self) { _ = try live.update(["heart_rate_contact": .integer(1)], boottime: 0) }
        #expect(throws: LiveError.self) { _ = try live.update(["heart_rate_sensor": .boolean(true)], boottime: 0) }
    }
}
