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

    /// On SIGINT, SIGTERM or SIGHUP: erase the countdown, say that the timer goes on, and end
    /// as killed by that signal (the shell shows 130 for Ctrl-C), so that a script or loop
    /// around restctl stops too. The handler only calls async-signal-safe functions.
    static func eraseOnInterrupt() {
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            // A signal the caller ignores (nohup, a background job) stays ignored.
            var current = sigaction()
            sigaction(signalNumber, nil, &current)
            if let handler = current.__sigaction_handler.sa_handler,
               unsafeBitCast(handler, to: UnsafeRawPointer.self) == unsafeBitCast(SIG_IGN, to: UnsafeRawPointer.self) {
                continue
            }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signalNumber in
                let erase: StaticString = "\r\u{1B}[K"
                let note: StaticString = "restctl: stopped waiting; the timer goes on (restctl cancel ends it)\n"
                _ = Glibc.write(STDOUT_FILENO, erase.utf8Start, erase.utf8CodeUnitCount)
                _ = Glibc.write(STDERR_FILENO, note.utf8Start, note.utf8CodeUnitCount)
                signal(signalNumber, SIG_DFL)
                raise(signalNumber)
            }
            sigemptyset(&action.sa_mask)
            sigaction(signalNumber, &action, nil)
        }
    }
}
