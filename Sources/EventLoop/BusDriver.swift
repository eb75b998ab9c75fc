import CDBus
import CSystemd
import DBusKit
import Glibc

/// Drives a libdbus connection from an sd-event loop: its socket watches, its timeouts
/// (pending-call deadlines) and its dispatching.
public final class BusDriver {
    public let connection: Connection
    public let loop: EventLoop
    private var dispatchSource: DeferSource!

    public init(connection: Connection, loop: EventLoop) throws(SystemError) {
        self.connection = connection
        self.loop = loop
        // libdbus forbids dispatching from inside its own callbacks: the status callback only
        // enables this deferred source, which dispatches on the next loop iteration.
        dispatchSource = try loop.addDefer { [unowned self] in self.dispatchAll() }

        let userData = Unmanaged.passUnretained(self).toOpaque()
        let raw = connection.raw
        guard dbus_connection_set_watch_functions(raw, addWatch, removeWatch, toggleWatch, userData, nil) != 0,
            dbus_connection_set_timeout_functions(raw, addTimeout, removeTimeout, toggleTimeout, userData, nil) != 0
        else { throw SystemError(errno: ENOMEM, "cannot attach the bus connection to the event loop") }
        dbus_connection_set_dispatch_status_function(raw, dispatchStatusChanged, userData, nil)
        // Messages (NameAcquired, say) may already be queued, and no callback will announce them.
        scheduleDispatchIfNeeded()
    }

    deinit {
        let raw = connection.raw
        dbus_connection_set_dispatch_status_function(raw, nil, nil, nil)
        dbus_connection_set_watch_functions(raw, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(raw, nil, nil, nil, nil, nil)
    }

    fileprivate func scheduleDispatchIfNeeded() {
        if dbus_connection_get_dispatch_status(connection.raw) == DBUS_DISPATCH_DATA_REMAINS {
            dispatchSource.isEnabled = true
        }
    }

    private func dispatchAll() {
        while dbus_connection_dispatch(connection.raw) == DBUS_DISPATCH_DATA_REMAINS {}
        dispatchSource.isEnabled = false
    }

    // MARK: Watches

    fileprivate func add(watch: OpaquePointer) -> Bool {
        // Each watch gets its own duplicate of the socket: epoll refuses the same fd twice
        // (EEXIST), which would leave the write watch dead under back-pressure.
        let fd = dbus_watch_get_unix_fd(watch)
        let duplicate = fcntl(fd, F_DUPFD_CLOEXEC, 3)
        guard duplicate >= 0 else { return false }
        let flags = dbus_watch_get_flags(watch)
        var events: UInt32 = 0
        if flags & DBUS_WATCH_READABLE.rawValue != 0 { events |= EPOLLIN.rawValue }
        if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events |= EPOLLOUT.rawValue }
        let source: IOSource
        do {
            source = try loop.addIO(fd: duplicate, events: events, ownsFD: true) { [unowned self] revents in
                var handled: UInt32 = 0
                if revents & EPOLLIN.rawValue != 0 { handled |= DBUS_WATCH_READABLE.rawValue }
                if revents & EPOLLOUT.rawValue != 0 { handled |= DBUS_WATCH_WRITABLE.rawValue }
                if revents & EPOLLERR.rawValue != 0 { handled |= DBUS_WATCH_ERROR.rawValue }
                if revents & EPOLLHUP.rawValue != 0 { handled |= DBUS_WATCH_HANGUP.rawValue }
                dbus_watch_handle(watch, handled)
                self.scheduleDispatchIfNeeded()
            }
        } catch {
            close(duplicate)
            return false
        }
        source.isEnabled = dbus_watch_get_enabled(watch) != 0
        dbus_watch_set_data(watch, Unmanaged.passRetained(source).toOpaque(), releaseSource)
        return true
    }

    // MARK: Timeouts

    fileprivate func add(timeout: OpaquePointer) -> Bool {
        let interval = UInt64(max(0, dbus_timeout_get_interval(timeout))) * 1000
        let holder = TimeoutHolder(loop: loop)
        do {
            holder.source = try loop.addTimer(
                clock: CLOCK_MONOTONIC, at: loop.now(CLOCK_MONOTONIC) + interval, accuracyUSec: 1000
            ) { [unowned loop] _ in
                // libdbus timeouts repeat, from when they are handled (the handler's argument is
                // when it was due). Re-arm first: dbus_timeout_handle may remove the timeout and
                // release this very source.
                holder.source?.schedule(at: loop.now(CLOCK_MONOTONIC) + interval)
                dbus_timeout_handle(timeout)
            }
        } catch {
            return false
        }
        if dbus_timeout_get_enabled(timeout) == 0 { holder.source?.isEnabled = false }
        dbus_timeout_set_data(timeout, Unmanaged.passRetained(holder).toOpaque(), releaseTimeoutHolder)
        return true
    }

    fileprivate static func toggle(timeout: OpaquePointer) {
        guard let data = dbus_timeout_get_data(timeout) else { return }
        let holder = Unmanaged<TimeoutHolder>.fromOpaque(data).takeUnretainedValue()
        if dbus_timeout_get_enabled(timeout) != 0 {
            let interval = UInt64(max(0, dbus_timeout_get_interval(timeout))) * 1000
            holder.source?.schedule(at: holder.loop.now(CLOCK_MONOTONIC) + interval)
        } else {
            holder.source?.isEnabled = false
        }
    }
}

/// Holds a timeout's timer source; the timer's own handler needs to reach it to re-arm.
private final class TimeoutHolder {
    var source: TimerSource?
    unowned let loop: EventLoop

    init(loop: EventLoop) { self.loop = loop }
}

// C callbacks: capture-free, they find the driver through the userdata pointer.

private func addWatch(_ watch: OpaquePointer?, _ userData: UnsafeMutableRawPointer?) -> dbus_bool_t {
    guard let watch, let userData else { return 0 }
    return Unmanaged<BusDriver>.fromOpaque(userData).takeUnretainedValue().add(watch: watch) ? 1 : 0
}

private func removeWatch(_ watch: OpaquePointer?, _ userData: UnsafeMutableRawPointer?) {
    guard let watch, let data = dbus_watch_get_data(watch) else { return }
    Unmanaged<IOSource>.fromOpaque(data).takeUnretainedValue().cancel()
    dbus_watch_set_data(watch, nil, nil)  // runs releaseSource on the old data
}

private func toggleWatch(_ watch: OpaquePointer?, _ userData: UnsafeMutableRawPointer?) {
    guard let watch, let data = dbus_watch_get_data(watch) else { return }
    Unmanaged<IOSource>.fromOpaque(data).takeUnretainedValue().isEnabled = dbus_watch_get_enabled(watch) != 0
}

private func releaseSource(_ data: UnsafeMutableRawPointer?) {
    guard let data else { return }
    Unmanaged<IOSource>.fromOpaque(data).release()
}

private func addTimeout(_ timeout: OpaquePointer?, _ userData: UnsafeMutableRawPointer?) -> dbus_bool_t {
    guard let timeout, let userData else { return 0 }
    return Unmanaged<BusDriver>.fromOpaque(userData).takeUnretainedValue().add(timeout: timeout) ? 1 : 0
}

private func removeTimeout(_ timeout: OpaquePointer?, _ userData: UnsafeMutableRawPointer?) {
    guard let timeout, let data = dbus_timeout_get_data(timeout) else { return }
    let holder = Unmanaged<TimeoutHolder>.fromOpaque(data).takeUnretainedValue()
    holder.source?.cancel()
    holder.source = nil
    dbus_timeout_set_data(timeout, nil, nil)
}

private func toggleTimeout(_ timeout: OpaquePointer?, _ userData: UnsafeMutableRawPointer?) {
    guard let timeout else { return }
    BusDriver.toggle(timeout: timeout)
}

private func releaseTimeoutHolder(_ data: UnsafeMutableRawPointer?) {
    guard let data else { return }
    Unmanaged<TimeoutHolder>.fromOpaque(data).release()
}

private func dispatchStatusChanged(
    _ connection: OpaquePointer?, _ status: DBusDispatchStatus, _ userData: UnsafeMutableRawPointer?
) {
    guard let userData, status == DBUS_DISPATCH_DATA_REMAINS else { return }
    Unmanaged<BusDriver>.fromOpaque(userData).takeUnretainedValue().scheduleDispatchIfNeeded()
}
