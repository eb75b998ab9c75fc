import Glibc

/// Why a child could not be started: posix_spawn's error number.
public struct SpawnError: Error, CustomStringConvertible {
    public let errno: Int32
    public let program: String

    public var description: String { "cannot run \(program): \(String(cString: strerror(errno)))" }
}

/// posix_spawn, wrapped once for restd (its sound command) and the test and benchmark harness.
///
/// A child starts as if from a shell, whatever the parent did to its own signals: an empty
/// signal mask and every signal at its default disposition. restd blocks SIGTERM, SIGINT,
/// SIGHUP and SIGCHLD for sd-event, and ignores SIGPIPE; a test runner's threads run with most
/// signals blocked. Without this a child would inherit that and ignore SIGTERM.
public enum Spawn {
    /// Where one of the child's standard streams goes.
    public enum Stream {
        /// The parent's own descriptor, shared.
        case inherit
        case devNull
        /// A duplicate of this descriptor of the parent's.
        case descriptor(Int32)
    }

    /// Starts `program` (by default `argv[0]`) with `argv`; returns its pid. `searchPath`: look
    /// the program up in PATH (posix_spawnp). `environment`: exactly these `NAME=value` entries, nil for the
    /// parent's. `closeOtherDescriptors`: the child gets only its three standard streams.
    public static func start(
        _ argv: [String], program: String? = nil, searchPath: Bool = false, environment: [String]? = nil,
        stdin: Stream = .devNull, stdout: Stream = .inherit, stderr: Stream = .inherit,
        closeOtherDescriptors: Bool = false
    ) throws(SpawnError) -> pid_t {
        precondition(!argv.isEmpty, "no program to run")
        let program = program ?? argv[0]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, stream, mode) in [(Int32(0), stdin, O_RDONLY), (1, stdout, O_WRONLY), (2, stderr, O_WRONLY)] {
            switch stream {
            case .inherit: break
            case .devNull: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", mode, 0)
            case .descriptor(let source): posix_spawn_file_actions_adddup2(&actions, source, target)
            }
        }
        if closeOtherDescriptors, let closeFrom = addClosefrom { _ = closeFrom(&actions, 3) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        sigfillset(&signals)
        posix_spawnattr_setsigdefault(&attributes, &signals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { $0.map { strdup($0) } + [nil] }
        defer {
            cArguments.forEach { free($0) }
            cEnvironment?.forEach { free($0) }
        }
        var pid: pid_t = 0
        // glibc reports a program that cannot be executed (ENOENT, EACCES) as the result.
        let result = cEnvironment.withOptionalPointer { envp in
            searchPath
                ? posix_spawnp(&pid, program, &actions, &attributes, cArguments, envp ?? UnsafePointer(environ))
                : posix_spawn(&pid, program, &actions, &attributes, cArguments, envp ?? UnsafePointer(environ))
        }
        guard result == 0 else { throw SpawnError(errno: result, program: program) }
        return pid
    }

    /// glibc's posix_spawn_file_actions_addclosefrom_np (2.34+), which Swift's Glibc module
    /// does not import; looked up at run time.
    private typealias AddClosefrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    // A function pointer set once by Swift's thread-safe lazy initialisation and never changed.
    private static let addClosefrom: AddClosefrom? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else {
            return nil
        }
        return unsafeBitCast(symbol, to: AddClosefrom.self)
    }()
}

private extension Optional where Wrapped == [UnsafeMutablePointer<CChar>?] {
    func withOptionalPointer<R>(_ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>?) -> R) -> R {
        guard let self else { return body(nil) }
        return self.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}
