/// The names of restd's D-Bus API, shared by the daemon and its clients.
public enum RestBus {
    /// The well-known bus name restd owns.
    public static let name = "io.restd.Rest1"
    /// The manager object.
    public static let managerPath = "/io/restd/Rest1"
    /// Parent of the timer objects: `/io/restd/Rest1/timer/<id>`.
    public static let timersPath = "/io/restd/Rest1/timer"

    /// The live activity object.
    public static let livePath = "/io/restd/Rest1/live"

    public static let managerInterface = "io.restd.Rest1.Manager"
    public static let timerInterface = "io.restd.Rest1.Timer"
    public static let liveInterface = "io.restd.Rest1.Live"

    /// The object path of the timer with this (already validated) id.
    public static func timerPath(id: String) -> String { timersPath + "/" + id }

    /// The version reported by the `Version` property and `--version`.
    public static let version = "0.1.0"
}

/// Error names of io.restd.Rest1 (besides org.freedesktop.DBus.Error.InvalidArgs).
public enum RestErrorName {
    public static let noSuchTimer = "io.restd.Rest1.Error.NoSuchTimer"
    public static let invalidState = "io.restd.Rest1.Error.InvalidState"
    public static let limitExceeded = "io.restd.Rest1.Error.LimitExceeded"
    /// A mutation could not be stored (disk full, read-only state directory): nothing changed.
    public static let storageFailed = "io.restd.Rest1.Error.StorageFailed"
    public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
}

/// Keys of the `options` dictionary of Start.
public enum StartOption {
    public static let label = "label"
    public static let next = "next"
    public static let notify = "notify"
    /// A pre-alert this long (µs, t) before the end; 0 for none.
    public static let warn = "warn_usec"
}

/// Property names of io.restd.Rest1.Timer.
public enum TimerProperty {
    public static let id = "Id"
    public static let label = "Label"
    public static let next = "Next"
    public static let state = "State"
    public static let durationUSec = "DurationUSec"
    public static let startedAtUSec = "StartedAtUSec"
    public static let endsAtUSec = "EndsAtUSec"
    public static let remainingUSec = "RemainingUSec"
    public static let expiredAtUSec = "ExpiredAtUSec"
    public static let notify = "Notify"
    public static let warnUSec = "WarnUSec"
}

/// Property names of io.restd.Rest1.Live.
public enum LiveProperty {
    public static let fields = "Fields"
    public static let active = "Active"
    public static let updatedAtUSec = "UpdatedAtUSec"
    public static let maxRateHz = "MaxRateHz"
}

/// Property names of io.restd.Rest1.Manager.
public enum ManagerProperty {
    public static let version = "Version"
    /// The rest `restctl start` uses when no duration is given (`default_duration` in config.toml).
    public static let defaultDurationUSec = "DefaultDurationUSec"
}

/// Keys of each entry of io.restd.Rest1.Live.Sensors (`aa{sv}`): one heart-rate strap BlueZ knows.
public enum SensorKey {
    /// s: the Bluetooth address, `AA:BB:CC:DD:EE:FF`.
    public static let address = "address"
    /// s: the name the user sees (BlueZ's Alias).
    public static let alias = "alias"
    public static let paired = "paired"
    public static let connected = "connected"
    /// x: percent, only when BlueZ reports a battery.
    public static let battery = "battery"
    /// x: the last heart rate restd read from it, only when there was one.
    public static let heartRate = "heart_rate"
    /// t: when that value came (CLOCK_REALTIME µs), only with heart_rate.
    public static let heartRateAtUSec = "heart_rate_at_usec"
    /// b: whether restd reads this strap now.
    public static let reading = "reading"
}
