import CPulse
import EventLoop
import Glibc

/// libpulse's main-loop interface (`pa_mainloop_api`) served by restd's own sd-event loop, so that
/// talking to the sound server needs no thread: libpulse's own loops are a blocking poll loop
/// (`pa_mainloop`), a thread of its own (`pa_threaded_mainloop`) or GLib's.
///
/// libpulse asks for three kinds of event: a file descriptor to watch, a timer and a deferred
/// call that runs once per iteration while enabled. Each becomes one EventLoop source. An event
/// is a Swift object handed to libpulse as an opaque pointer, retained until libpulse frees it
/// (which it may do from inside the event's own callback).
final class PulseMainloop {
    private let loop: EventLoop
    /// What libpulse is given; it must outlive every context created with it.
    let api: UnsafeMutablePointer<pa_mainloop_api>

    init(loop: EventLoop) {
        self.loop = loop
        api = .allocate(capacity: 1)
        api.initialize(
            to: pa_mainloop_api(
                userdata: nil,
                io_new: pulseIONew, io_enable: pulseIOEnable, io_free: pulseIOFree, io_set_destroy: pulseIOSetDestroy,
                time_new: pulseTimeNew, time_restart: pulseTimeRestart, time_free: pulseTimeFree,
                time_set_destroy: pulseTimeSetDestroy,
                defer_new: pulseDeferNew, defer_enable: pulseDeferEnable, defer_free: pulseDeferFree,
                defer_set_destroy: pulseDeferSetDestroy,
                quit: pulseQuit))
        api.pointee.userdata = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        api.deinitialize(count: 1)
        api.deallocate()
    }

    fileprivate static func from(_ api: UnsafeMutablePointer<pa_mainloop_api>?) -> PulseMainloop {
        Unmanaged<PulseMainloop>.fromOpaque(api!.pointee.userdata).takeUnretainedValue()
    }

    // MARK: File descriptors

    fileprivate final class IOEvent {
        let api: UnsafeMutablePointer<pa_mainloop_api>
        /// libpulse's own descriptor, given back to its callback.
        let fd: Int32
        let callback: pa_io_event_cb_t
        let userData: UnsafeMutableRawPointer?
        var destroy: pa_io_event_destroy_cb_t?
        var source: IOSource?

        init(
            api: UnsafeMutablePointer<pa_mainloop_api>, fd: Int32, callback: pa_io_event_cb_t,
            userData: UnsafeMutableRawPointer?
        ) {
            self.api = api
            self.fd = fd
            self.callback = callback
            self.userData = userData
        }

        func enable(_ flags: pa_io_event_flags_t) {
            let events = PulseMainloop.epollEvents(flags)
            source?.setEvents(events)
            source?.isEnabled = events != 0
        }
    }

    fileprivate func newIO(
        fd: Int32, flags: pa_io_event_flags_t, callback: pa_io_event_cb_t, userData: UnsafeMutableRawPointer?
    ) -> OpaquePointer? {
        let event = IOEvent(api: api, fd: fd, callback: callback, userData: userData)
        let pointer = Unmanaged.passRetained(event).toOpaque()
        // A duplicate, owned by the loop: epoll refuses a descriptor added twice (libpulse may
        // watch one socket through two events), and libpulse may close its own first.
        let watched = fcntl(fd, F_DUPFD_CLOEXEC, 3)
        if watched >= 0,
            let source = try? loop.addIO(
                fd: watched, events: EPOLLIN.rawValue, ownsFD: true,
                { [unowned event] events in
                    withExtendedLifetime(event) {
                        event.callback(
                            event.api, OpaquePointer(pointer), event.fd, Self.pulseFlags(events), event.userData)
                    }
                })
        {
            event.source = source
            event.enable(flags)
        } else if watched >= 0 {
            close(watched)
        }
        // An event without a source never fires: libpulse then sees its connection time out.
        return OpaquePointer(pointer)
    }

    static func epollEvents(_ flags: pa_io_event_flags_t) -> UInt32 {
        var events: UInt32 = 0
        if flags.rawValue & PA_IO_EVENT_INPUT.rawValue != 0 { events |= EPOLLIN.rawValue }
        if flags.rawValue & PA_IO_EVENT_OUTPUT.rawValue != 0 { events |= EPOLLOUT.rawValue }
        return events
    }

    static func pulseFlags(_ events: UInt32) -> pa_io_event_flags_t {
        var flags: UInt32 = 0
        if events & EPOLLIN.rawValue != 0 { flags |= PA_IO_EVENT_INPUT.rawValue }
        if events & EPOLLOUT.rawValue != 0 { flags |= PA_IO_EVENT_OUTPUT.rawValue }
        if events & EPOLLHUP.rawValue != 0 { flags |= PA_IO_EVENT_HANGUP.rawValue }
        if events & EPOLLERR.rawValue != 0 { flags |= PA_IO_EVENT_ERROR.rawValue }
        return pa_io_event_flags_t(flags)
    }

    // MARK: Timers

    fileprivate final class TimeEvent {
        let api: UnsafeMutablePointer<pa_mainloop_api>
        let callback: pa_time_event_cb_t
        let userData: UnsafeMutableRawPointer?
        var destroy: pa_time_event_destroy_cb_t?
        var source: TimerSource?
        var clock: clockid_t = CLOCK_MONOTONIC

        init(
            api: UnsafeMutablePointer<pa_mainloop_api>, callback: pa_time_event_cb_t, userData: UnsafeMutableRawPointer?
        ) {
            self.api = api
            self.callback = callback
            self.userData = userData
        }
    }

    /// libpulse marks a deadline on its monotonic clock ("rtclock") with this bit of `tv_usec`
    /// (PA_TIMEVAL_RTCLOCK in its private headers); without it the deadline is wall-clock time.
    private static let monotonicMark = 1 << 30

    fileprivate func restart(_ event: TimeEvent, _ pointer: OpaquePointer, at tv: UnsafePointer<timeval>?) {
        guard let tv else {
            event.source?.isEnabled = false
            return
        }
        var usec = tv.pointee.tv_usec
        let clock = usec & Self.monotonicMark != 0 ? CLOCK_MONOTONIC : CLOCK_REALTIME
        usec &= ~Self.monotonicMark
        let deadline = UInt64(max(0, tv.pointee.tv_sec)) * 1_000_000 + UInt64(max(0, usec))
        if event.source == nil || clock != event.clock {
            event.source = try? loop.addTimer(clock: clock, at: deadline, accuracyUSec: 1) { [unowned event] _ in
                withExtendedLifetime(event) { event.callback(event.api, pointer, tv_of(deadline), event.userData) }
            }
            event.clock = clock
        }
        event.source?.schedule(at: deadline)
    }

    // MARK: Deferred calls

    fileprivate final class DeferEvent {
        let api: UnsafeMutablePointer<pa_mainloop_api>
        let callback: pa_defer_event_cb_t
        let userData: UnsafeMutableRawPointer?
        var destroy: pa_defer_event_destroy_cb_t?
        var source: DeferSource?

        init(
            api: UnsafeMutablePointer<pa_mainloop_api>, callback: pa_defer_event_cb_t,
            userData: UnsafeMutableRawPointer?
        ) {
            self.api = api
            self.callback = callback
            self.userData = userData
        }
    }

    fileprivate func newDefer(callback: pa_defer_event_cb_t, userData: UnsafeMutableRawPointer?) -> OpaquePointer? {
        let event = DeferEvent(api: api, callback: callback, userData: userData)
        let pointer = OpaquePointer(Unmanaged.passRetained(event).toOpaque())
        event.source = try? loop.addDefer { [unowned event] in
            withExtendedLifetime(event) { event.callback(event.api, pointer, event.userData) }
        }
        // Enabled when created, as in libpulse's own loops.
        event.source?.isEnabled = true
        return pointer
    }
}

/// A deadline in µs as libpulse's callbacks expect it (the wall clock's form; libpulse reads the
/// clock itself where it matters).
private func tv_of(_ usec: UInt64) -> UnsafePointer<timeval>? {
    // libpulse copies the value before returning; a static buffer is enough on the one loop thread.
    lastDeadline.pointee = timeval(tv_sec: time_t(usec / 1_000_000), tv_usec: suseconds_t(usec % 1_000_000))
    return UnsafePointer(lastDeadline)
}

// Only touched on the loop's thread, inside libpulse's callbacks.
nonisolated(unsafe) private let lastDeadline = UnsafeMutablePointer<timeval>.allocate(capacity: 1)

// MARK: The C entry points: each recovers its Swift event from the opaque pointer.

private func ioEvent(_ pointer: OpaquePointer?) -> PulseMainloop.IOEvent {
    Unmanaged<PulseMainloop.IOEvent>.fromOpaque(UnsafeRawPointer(pointer!)).takeUnretainedValue()
}

private func timeEvent(_ pointer: OpaquePointer?) -> PulseMainloop.TimeEvent {
    Unmanaged<PulseMainloop.TimeEvent>.fromOpaque(UnsafeRawPointer(pointer!)).takeUnretainedValue()
}

private func deferEvent(_ pointer: OpaquePointer?) -> PulseMainloop.DeferEvent {
    Unmanaged<PulseMainloop.DeferEvent>.fromOpaque(UnsafeRawPointer(pointer!)).takeUnretainedValue()
}

private func pulseIONew(
    _ api: UnsafeMutablePointer<pa_mainloop_api>?, _ fd: Int32, _ flags: pa_io_event_flags_t,
    _ callback: pa_io_event_cb_t?, _ userData: UnsafeMutableRawPointer?
) -> OpaquePointer? {
    PulseMainloop.from(api).newIO(fd: fd, flags: flags, callback: callback!, userData: userData)
}

private func pulseIOEnable(_ pointer: OpaquePointer?, _ flags: pa_io_event_flags_t) {
    ioEvent(pointer).enable(flags)
}

private func pulseIOFree(_ pointer: OpaquePointer?) {
    let event = ioEvent(pointer)
    event.source?.cancel()
    event.source = nil
    event.destroy?(event.api, pointer, event.userData)
    Unmanaged.passUnretained(event).release()
}

private func pulseIOSetDestroy(_ pointer: OpaquePointer?, _ destroy: pa_io_event_destroy_cb_t?) {
    ioEvent(pointer).destroy = destroy
}

private func pulseTimeNew(
    _ api: UnsafeMutablePointer<pa_mainloop_api>?, _ tv: UnsafePointer<timeval>?, _ callback: pa_time_event_cb_t?,
    _ userData: UnsafeMutableRawPointer?
) -> OpaquePointer? {
    let mainloop = PulseMainloop.from(api)
    let event = PulseMainloop.TimeEvent(api: mainloop.api, callback: callback!, userData: userData)
    let pointer = OpaquePointer(Unmanaged.passRetained(event).toOpaque())
    mainloop.restart(event, pointer, at: tv)
    return pointer
}

private func pulseTimeRestart(_ pointer: OpaquePointer?, _ tv: UnsafePointer<timeval>?) {
    let event = timeEvent(pointer)
    PulseMainloop.from(event.api).restart(event, pointer!, at: tv)
}

private func pulseTimeFree(_ pointer: OpaquePointer?) {
    let event = timeEvent(pointer)
    event.source?.cancel()
    event.source = nil
    event.destroy?(event.api, pointer, event.userData)
    Unmanaged.passUnretained(event).release()
}

private func pulseTimeSetDestroy(_ pointer: OpaquePointer?, _ destroy: pa_time_event_destroy_cb_t?) {
    timeEvent(pointer).destroy = destroy
}

private func pulseDeferNew(
    _ api: UnsafeMutablePointer<pa_mainloop_api>?, _ callback: pa_defer_event_cb_t?,
    _ userData: UnsafeMutableRawPointer?
) -> OpaquePointer? {
    PulseMainloop.from(api).newDefer(callback: callback!, userData: userData)
}

private func pulseDeferEnable(_ pointer: OpaquePointer?, _ enabled: Int32) {
    deferEvent(pointer).source?.isEnabled = enabled != 0
}

private func pulseDeferFree(_ pointer: OpaquePointer?) {
    let event = deferEvent(pointer)
    event.source?.cancel()
    event.source = nil
    event.destroy?(event.api, pointer, event.userData)
    Unmanaged.passUnretained(event).release()
}

private func pulseDeferSetDestroy(_ pointer: OpaquePointer?, _ destroy: pa_defer_event_destroy_cb_t?) {
    deferEvent(pointer).destroy = destroy
}

/// libpulse never asks a loop it does not own to quit; restd's loop is restd's.
private func pulseQuit(_ api: UnsafeMutablePointer<pa_mainloop_api>?, _ code: Int32) {}
