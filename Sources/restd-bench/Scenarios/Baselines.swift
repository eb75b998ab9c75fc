import CDBus
import CSystemd
import Clocks
import DBusKit
import Glibc

/// The physical floor of expiry lateness on this machine: how late a thread wakes from an
/// absolute CLOCK_REALTIME timerfd, with nothing else in the way.
enum TimerfdFloor {
    /// Lateness in ms of `samples` sleeps, each to a deadline `meanGap` seconds (±50 %) after
    /// the previous wake-up, so that they spread over about samples × meanGap seconds.
    static func measure(samples: Int, meanGap: Double) -> [Double] {
        let fd = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC))
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var lateness: [Double] = []
        lateness.reserveCapacity(samples)
        for _ in 0..<samples {
            let target = KernelClock.nanoseconds(CLOCK_REALTIME) + Int64(Double.random(in: 0.5...1.5) * meanGap * 1e9)
            var spec = itimerspec(
                it_interval: timespec(),
                it_value: timespec(tv_sec: Int(target / 1_000_000_000), tv_nsec: Int(target % 1_000_000_000)))
            guard timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME), &spec, nil) == 0 else { return lateness }
            var expirations: UInt64 = 0
            while read(fd, &expirations, 8) < 0 && errno == EINTR {}
            lateness.append(Double(KernelClock.nanoseconds(CLOCK_REALTIME) - target) / 1e6)
        }
        return lateness
    }
}

/// The design restd replaces: a process that wakes once a second (60 wake-ups a minute)
/// to count down. `restd-bench --tick-baseline` runs it until killed; scenario 2 counts its
/// context switches the same way as restd's.
enum TickBaseline {
    static func run() -> Never {
        let fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC))
        var spec = itimerspec(it_interval: timespec(tv_sec: 1, tv_nsec: 0), it_value: timespec(tv_sec: 1, tv_nsec: 0))
        timerfd_settime(fd, 0, &spec, nil)
        var expirations: UInt64 = 0
        while true { _ = read(fd, &expirations, 8) }
    }
}

/// The floor of an expiry *announced on the bus*: a separate process that wakes from an
/// absolute CLOCK_REALTIME timerfd and at once emits one small signal through the
/// dbus-daemon, as restd does for Expired, with none of restd's work in between.
/// `restd-bench --signal-floor COUNT:GAP:ADDRESS` runs it; scenario 1 records the arrivals.
enum SignalFloor {
    static let interface = "io.restd.Bench.Floor"
    static let match = "type='signal',interface='\(interface)'"

    static func run(_ spec: String) -> Never {
        let parts = spec.split(separator: ":", maxSplits: 2).map(String.init)
        guard parts.count == 3, let count = Int(parts[0]), let gap = Double(parts[1]),
            let client = try? BusClient(address: parts[2])
        else { exit(2) }
        let fd = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC))
        for _ in 0..<count {
            let target = KernelClock.nanoseconds(CLOCK_REALTIME) + Int64(Double.random(in: 0.5...1.5) * gap * 1e9)
            // Built before the wake-up, so that the window holds only the wake-up and the send.
            let signal = firedSignal(target)
            var spec = itimerspec(
                it_interval: timespec(),
                it_value: timespec(tv_sec: Int(target / 1_000_000_000), tv_nsec: Int(target % 1_000_000_000)))
            timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME), &spec, nil)
            var expirations: UInt64 = 0
            while read(fd, &expirations, 8) < 0 && errno == EINTR {}
            client.connection.send(signal)
            client.connection.flush()
        }
        client.connection.flush()
        exit(0)
    }

    private static func firedSignal(_ target: Int64) -> Message {
        do throws(DBusKit.DBusError) {
            let signal = try Message.signal(path: "/io/restd/Bench", interface: interface, name: "Fired")
            try signal.append(.int64(target))
            return signal
        } catch {
            fatalError("restd-bench built an invalid signal: \(error.message)")
        }
    }
}

/// The floor of a call answered through libdbus: a separate process that owns a name and
/// answers every method call with an empty reply, reading nothing, from libdbus's own loop
/// (`dbus_connection_read_write_dispatch`) on a bare libdbus connection (no filter of
/// DBusKit's). What the client, the dbus-daemon and libdbus pay for a call, with none of a
/// server's work: libdbus still loads and validates each call's body, and answers Peer.Ping
/// itself as it does inside restd. `restd-bench --call-floor ADDRESS` runs it until killed;
/// scenario 3 calls it.
enum CallFloor {
    static let name = "io.restd.Bench.CallFloor"

    static func run(_ address: String) -> Never {
        var error = DBusError()
        dbus_error_init(&error)
        guard let connection = dbus_connection_open_private(address, &error),
            dbus_bus_register(connection, &error) != 0,
            dbus_bus_request_name(connection, name, UInt32(DBUS_NAME_FLAG_DO_NOT_QUEUE), &error)
                == DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER
        else { exit(2) }
        var table = DBusObjectPathVTable()
        table.message_function = { connection, message, _ in
            guard let connection, let message, dbus_message_get_type(message) == CDBUS_MESSAGE_TYPE_METHOD_CALL
            else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            if dbus_message_get_no_reply(message) == 0, let reply = dbus_message_new_method_return(message) {
                dbus_connection_send(connection, reply, nil)
                dbus_message_unref(reply)
            }
            return DBUS_HANDLER_RESULT_HANDLED
        }
        guard dbus_connection_register_fallback(connection, "/", &table, nil) != 0 else { exit(1) }
        while dbus_connection_read_write_dispatch(connection, -1) != 0 {}
        exit(0)
    }
}
