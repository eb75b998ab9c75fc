import DBusKit
import RestProtocol

extension HeartRateFollower.SensorStatus {
    /// One entry of io.restd.Rest1.Live.Sensors (keys in `SensorKey`); battery and the last
    /// value only when known.
    var busEntry: [String: DBusValue] {
        var entry: [String: DBusValue] = [
            SensorKey.address: .string(strap.address),
            SensorKey.alias: .string(strap.alias),
            SensorKey.paired: .boolean(strap.paired),
            SensorKey.connected: .boolean(strap.connected),
            SensorKey.reading: .boolean(reading),
        ]
        if let battery = strap.batteryPercent { entry[SensorKey.battery] = .int64(Int64(battery)) }
        if let bpm = lastBeatsPerMinute {
            entry[SensorKey.heartRate] = .int64(Int64(bpm))
            entry[SensorKey.heartRateAtUSec] = .uint64(lastValueAtUSec)
        }
        return entry
    }
}
