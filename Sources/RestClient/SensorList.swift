import DBusKit
import RestProtocol

/// One heart-rate strap as restd's `Sensors` method reports it.
public struct SensorSnapshot: Sendable, Equatable {
    public var address: String
    public var alias: String
    public var paired: Bool
    public var connected: Bool
    /// Whether restd reads this strap now.
    public var reading: Bool
    public var batteryPercent: Int64?
    /// The last heart rate restd read from it, and when (CLOCK_REALTIME µs).
    public var heartRate: Int64?
    public var heartRateAtUSec: UInt64?

    /// Reads one `a{sv}` entry; unknown keys (from a newer restd) are ignored.
    public init(entry: [String: DBusValue]) throws(ClientError) {
        guard let address = entry[SensorKey.address]?.unwrapped.string else {
            throw .badReply("a sensor without an address")
        }
        self.address = address
        alias = entry[SensorKey.alias]?.unwrapped.string ?? ""
        paired = entry[SensorKey.paired]?.unwrapped.bool ?? false
        connected = entry[SensorKey.connected]?.unwrapped.bool ?? false
        reading = entry[SensorKey.reading]?.unwrapped.bool ?? false
        batteryPercent = entry[SensorKey.battery]?.unwrapped.int64
        heartRate = entry[SensorKey.heartRate]?.unwrapped.int64
        heartRateAtUSec = entry[SensorKey.heartRateAtUSec]?.unwrapped.uint64
    }
}

/// How `restctl sensors` writes the straps.
public enum SensorList {
    /// One line per strap:
    /// `A0:9E:1A:12:34:56  reading    paired  battery 80%  72 bpm 3s ago  Polar H10 1234`:
    /// the address, its state (`reading`, `connected`, or `away` when BlueZ knows it but it is
    /// not connected), `paired` or `unpaired`, the battery, the last value restd read, the alias.
    public static func lines(_ sensors: [SensorSnapshot], now: UInt64) -> [String] {
        sensors.map { sensor in
            let state = sensor.reading ? "reading" : sensor.connected ? "connected" : "away"
            var parts = [sensor.address, pad(state, 9), pad(sensor.paired ? "paired" : "unpaired", 8)]
            parts.append(pad(sensor.batteryPercent.map { "battery \($0)%" } ?? "battery ?", 12))
            if let bpm = sensor.heartRate, let at = sensor.heartRateAtUSec {
                parts.append("\(bpm) bpm \(TimeFormat.elapsed(usec: now > at ? now - at : 0)) ago")
            } else {
                parts.append("no value yet")
            }
            parts.append(TimerLine.visible(sensor.alias))
            return parts.joined(separator: "  ")
        }
    }

    /// A JSON array of objects: address, alias, paired, connected, reading, battery (null when
    /// unknown), heart_rate and heart_rate_at (null before a first value).
    public static func json(_ sensors: [SensorSnapshot]) -> String {
        JSONText.array(
            sensors.map { sensor in
                var object = JSONObject()
                object.text("address", sensor.address)
                object.text("alias", sensor.alias)
                object.bool("paired", sensor.paired)
                object.bool("connected", sensor.connected)
                object.bool("reading", sensor.reading)
                object.integer("battery", sensor.batteryPercent)
                object.integer("heart_rate", sensor.heartRate)
                object.instant("heart_rate_at", usec: sensor.heartRateAtUSec)
                return object
            })
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
