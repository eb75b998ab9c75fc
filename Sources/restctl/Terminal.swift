import Localization
import RestClient

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal `start --wait` draws its countdown on: one line, redrawn in place.
enum Terminal {
    /// Standard output is a terminal.
    static var isStandardOutput: Bool { isatty(STDOUT_FILENO) == 1 }

    /// The terminal's width in columns; 80 when it does not say.
    static func columns() -> Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// Replaces the line under the cursor with `line` (which must fit: see `CountdownLine`).
    static func draw(_ line: String) {
        // Written whole, then the rest of the old line erased: no flicker, no leftovers.
        _ = StandardOutput.write("\r" + line + "\u{1B}[K")
    }

    /// Erases the line drawn, leaving the cursor at its start.
    static func erase() {
        _ = StandardOutput.write("\r\u{1B}[K")
    }

    /// While waiting (`start --wait`, `wait`), on SIGINT, SIGTERM or SIGHUP: erase the countdown
    /// (with `erasing`, in a terminal), say on stderr that the timer goes on, and end as killed
    /// by that signal (the shell shows 130 for Ctrl-C, 143 for SIGTERM), so that a script or loop
    /// around restctl stops too. The same in a terminal or not: only the erasing differs.
    static func noteOnInterrupt(erasing: Bool) {
        if stoppedNote == nil {
            stoppedNote = strdup(
                "restctl: " + localized("stopped waiting; the timer goes on ('restctl cancel' ends it)") + "\n")
        }
        // Capture-free handlers (C function pointers); they only call async-signal-safe functions.
        install(
            erasing
                ? { signalNumber in
                    let erase: StaticString = "\r\u{1B}[K"
                    _ = Glibc.write(STDOUT_FILENO, erase.utf8Start, erase.utf8CodeUnitCount)
                    Terminal.stoppedWaiting(signalNumber)
                }
                : { signalNumber in
                    Terminal.stoppedWaiting(signalNumber)
                })
    }

    /// For `watch` in a terminal, on SIGINT, SIGTERM or SIGHUP: end the line drawn in place, so
    /// that the shell's prompt comes below it, and end as killed by that signal.
    static func endLineOnInterrupt() {
        install { signalNumber in
            let newline: StaticString = "\n"
            _ = Glibc.write(STDOUT_FILENO, newline.utf8Start, newline.utf8CodeUnitCount)
            signal(signalNumber, SIG_DFL)
            raise(signalNumber)
        }
    }

    /// The note of `stoppedWaiting`, in the reader's language: made before the handler is
    /// installed, since a handler may not look anything up.
    // Written once, before the handlers that read it are installed; never changed after.
    nonisolated(unsafe) private static var stoppedNote: UnsafeMutablePointer<CChar>?

    private static func stoppedWaiting(_ signalNumber: Int32) {
        if let note = stoppedNote { _ = Glibc.write(STDERR_FILENO, note, strlen(note)) }
        signal(signalNumber, SIG_DFL)
        raise(signalNumber)
    }

    private static func install(_ handler: @convention(c) (Int32) -> Void) {
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            // A signal the caller ignores (nohup, a background job) stays ignored.
            var current = sigaction()
            sigaction(signalNumber, nil, &current)
            if let installed = current.__sigaction_handler.sa_handler,
                unsafeBitCast(installed, to: UnsafeRawPointer.self) == unsafeBitCast(SIG_IGN, to: UnsafeRawPointer.self)
            {
                continue
            }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = handler
            sigemptyset(&action.sa_mask)
            sigaction(signalNumber, &action, nil)
        }
    }

    /// Cuts `line` to fit `columns - 1` columns (a full-width line would wrap, and the next
    /// redraw would land on the line below), ending a cut line with "…".
    static func fitted(_ line: String, columns: Int) -> String {
        let room = max(1, columns - 1)
        guard DisplayWidth.of(line) > room else { return line }
        return DisplayWidth.prefix(line, width: room - 1) + "…"
    }
}
