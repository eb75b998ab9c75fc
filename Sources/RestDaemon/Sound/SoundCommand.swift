import EventLoop
import Glibc
import Localization
import Logging
import POSIXSpawn

/// Runs `[sound] command`: at each ring of the alarm instead of restd's own sound, and when
/// "Rest over" is shown by a notification server that cannot play sounds itself.
///
/// The command is an argv, started with `posix_spawnp` (no shell, found on PATH), which returns
/// once the program is running or failed to start, so the loop never waits for it. Its exit
/// comes back through the loop (an sd-event child source), which reaps it. At most one runs at a
/// time: when several rests end together, one sound is enough. `stop()` ends it with SIGTERM (the
/// alarm silenced). The first failure (the program cannot be started, or it ends with an error)
/// is logged as a warning, later ones at debug level, until it works again or a reload brings
/// another command.
final class SoundCommand {
    private let loop: EventLoop
    private let logger: Logger
    /// The command in force; nil plays nothing.
    var argv: [String]? {
        didSet {
            if argv != oldValue { failures.forget() }
        }
    }
    /// The running child's pid, nil when none runs.
    private var runningPID: pid_t?
    /// The child source of the last child. Released only when the next one starts, not inside
    /// its own handler: sd-event reaps the child after that handler returns.
    private var childSource: ChildSource?
    private var failures: RepeatedFailure
    /// Told when the command ended, or could not start (the next ring may start it again).
    var onFinished: () -> Void = {}

    /// Whether the command is running.
    var isRunning: Bool { runningPID != nil }

    init(loop: EventLoop, argv: [String]?, logger: Logger) {
        self.loop = loop
        self.argv = argv
        self.logger = logger
        failures = RepeatedFailure(logger: logger, recovered: "the sound command works again")
    }

    /// Ends the running command (SIGTERM); its end is reaped and told as usual.
    func stop() {
        guard let runningPID else { return }
        stopping = true
        kill(runningPID, SIGTERM)
    }

    /// Set while the command is being stopped: its death by SIGTERM is no failure.
    private var stopping = false

    /// Starts the command, unless there is none or it is still running. False when it did not start.
    @discardableResult
    func play() -> Bool {
        guard let argv, let program = argv.first else { return false }
        if let runningPID {
            logger.debug("the sound command (pid \(runningPID)) is still running; not starting another")
            return false
        }
        let pid: pid_t
        do {
            // stdin from /dev/null; stdout and stderr shared with restd, so that the command's
            // complaints reach restd's log.
            pid = try Spawn.start(argv, searchPath: true)
        } catch {
            noteFailure(
                localized(
                    "cannot run the sound command %1$s: %2$s", program, String(cString: strerror(error.errno))))
            return false
        }
        logger.debug("sound command started: \(program) (pid \(pid))")
        do {
            childSource = try loop.addChild(pid: pid) { [unowned self] exit in self.ended(pid, exit) }
            runningPID = pid
        } catch {
            // Cannot happen with SIGCHLD blocked; the child then stays a zombie until restd exits.
            childSource = nil
            logger.error(.init(stringLiteral: localized("cannot watch the sound command (pid %1$s): %2$s", pid, error)))
        }
        return true
    }

    private func ended(_ pid: pid_t, _ exit: ChildExit) {
        runningPID = nil
        let stopped = stopping
        stopping = false
        defer { onFinished() }
        guard exit == .exited(0) || (stopped && exit == .killed(signal: SIGTERM)) else {
            let program = argv?.first ?? "?"
            let failure =
                switch exit {
                case .exited(let status):
                    localized("the sound command %1$s (pid %2$d) exited with status %3$d", program, pid, status)
                case .killed(let signal):
                    localized("the sound command %1$s (pid %2$d) was killed by signal %3$d", program, pid, signal)
                }
            noteFailure(failure)
            return
        }
        logger.debug("sound command (pid \(pid)) finished")
        failures.succeeded()
    }

    private func noteFailure(_ message: String) {
        failures.failed(
            warning: .init(stringLiteral: localized("%1$s; further failures are logged only with --verbose", message)),
            again: "the sound command failed again: \(message)")
    }
}
