/// One value of a live activity field.
public enum LiveValue: Sendable, Equatable, Hashable {
    case integer(Int64)
    case double(Double)
    case string(String)
    case boolean(Bool)
}

/// Why a live update or subscription was refused; each case carries a full sentence.
public enum LiveError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidArgs(String)
    case limitExceeded(String)

    public var message: String {
        switch self {
        case .invalidArgs(let message), .limitExceeded(let message): message
        }
    }

    public var description: String { message }
}

/// Bounds of the live activity.
public struct LiveLimits: Sendable, Equatable {
    public var heartRate: ClosedRange<Int64> = 20...250
    public var maxProgress: Int64 = 1000
    public var maxTextBytes = 256
    public var maxCustomKeys = 16
    public var maxSubscribers = 256
    public var subscriberRateHz: ClosedRange<Double> = 0.01...20
    /// heart_rate not refreshed for this long is removed (ActivityKit's stale date).
    public var heartRateStaleUSec: USec = 10_000_000
    /// How long a producer's heart_rate wins over a Bluetooth strap's readings.
    public var producerPrecedenceUSec: USec = 10_000_000
    /// The broadcast rate of the Fields property (PropertiesChanged).
    public var broadcastRateHz: Double = 2

    public init() {}

    public static let standard = LiveLimits()
}

/// The keys restd knows, and the custom-key pattern.
public enum LiveKey {
    public static let heartRate = "heart_rate"
    /// The strap the heart rate comes from (its Bluetooth alias), whether it has skin contact,
    /// and its battery in percent: set by restd's own strap reader, or by a producer.
    public static let heartRateSensor = "heart_rate_sensor"
    public static let heartRateContact = "heart_rate_contact"
    public static let sensorBattery = "sensor_battery"
    public static let progressDone = "progress_done"
    public static let progressTotal = "progress_total"
    public static let exercise = "exercise"
    public static let workout = "workout"

    /// The fields a strap's reading sets (`HeartRateReading.liveFields`).
    public static let fromStrap: Set<String> = [heartRate, heartRateSensor, heartRateContact, sensorBattery]

    public static let known = [
        heartRate, heartRateSensor, heartRateContact, sensorBattery,
        progressDone, progressTotal, exercise, workout,
    ]

    /// `x_[a-z0-9_]{1,30}`: keys producers may add for their own widgets.
    public static func isCustom(_ key: String) -> Bool {
        let bytes = key.utf8
        guard (3...32).contains(bytes.count), bytes.starts(with: "x_".utf8) else { return false }
        return bytes.dropFirst(2).allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_")
        }
    }
}
