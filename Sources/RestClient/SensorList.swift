import DBusKit
import Localization
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
        let (reading, connected, away) = (
            // TRANSLATORS: a heart-rate strap's state in restctl sensors (reading it, connected, away).
            localizedInContext("strap", "reading"), localizedInContext("strap", "connected"),
            localizedInContext("strap", "away")
        )
        let (paired, unpaired) = (localizedInContext("strap", "paired"), localizedInContext("strap", "unpaired"))
        // The columns as wide as their longest word in the language.
        let stateWidth = [reading, connected, away].map(DisplayWidth.of).max() ?? 0
        let pairedWidth =
            DisplayWidth.of(paired) > DisplayWidth.of(unpaired) ? DisplayWidth.of(paired) : DisplayWidth.of(unpaired)
        let batteries = sensors.map { sensor in
            sensor.batteryPercent.map { localized("battery %1$s%%", $0) } ?? localized("battery ?")
        }
        // As wide as a full battery's, so that the columns after it line up from strap to strap.
        let batteryWidth = ([localized("battery %1$s%%", 100)] + batteries).map(DisplayWidth.of).max() ?? 0
        return zip(sensors, batteries).map { sensor, battery in
            let state = sensor.reading ? reading : sensor.connected ? connected : away
            var parts = [
                sensor.address, DisplayWidth.padded(state, to: stateWidth),
                DisplayWidth.padded(sensor.paired ? paired : unpaired, to: pairedWidth),
                DisplayWidth.padded(battery, to: batteryWidth),
            ]
            if let bpm = sensor.heartRate, let at = sensor.heartRateAtUSec {
                // TRANSLATORS: restctl sensors, the last heart rate read and how long ago: "72 bpm 0:03 ago".
                parts.append(localized("%1$d bpm %2$s ago", bpm, TimeFormat.elapsed(usec: now > at ? now - at : 0)))
            } else {
                parts.append(localized("no value yet"))
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
}
