/// One heart-rate notification from a strap, with what is known of the strap at that moment:
/// what the Bluetooth follower hands to the live activity.
public struct HeartRateReading: Sendable, Equatable {
    /// The strap's Bluetooth address.
    public var address: String
    /// Its name as the user sees it (BlueZ's Alias).
    public var sensorName: String
    public var measurement: HeartRateMeasurement
    /// Battery percentage, when the strap reports one.
    public var batteryPercent: Int?

    public init(address: String, sensorName: String, measurement: HeartRateMeasurement, batteryPercent: Int? = nil) {
        self.address = address
        self.sensorName = sensorName
        self.measurement = measurement
        self.batteryPercent = batteryPercent
    }

    /// The live fields this reading sets: heart_rate (not when contact is lost),
    /// heart_rate_sensor, heart_rate_contact (when the strap reports contact) and sensor_battery.
    public var liveFields: [String: LiveValue] {
        var fields: [String: LiveValue] = [LiveKey.heartRateSensor: .string(sensorName)]
        if let bpm = measurement.beatsPerMinute { fields[LiveKey.heartRate] = .integer(Int64(bpm)) }
        switch measurement.contact {
        case .detected: fields[LiveKey.heartRateContact] = .boolean(true)
        case .lost: fields[LiveKey.heartRateContact] = .boolean(false)
        case .unsupported: break
        }
        if let batteryPercent { fields[LiveKey.sensorBattery] = .integer(Int64(batteryPercent)) }
        return fields
    }
}
