import Foundation
import ProcessHarness

#if canImport(Glibc)
import Glibc
#endif

/// A real systemd user manager (`systemd --user`, with its `dbus.socket` session bus and a real
/// `systemd-journald`) in a private mount namespace, for tests of restd as systemd runs it, and
/// the host of `TestBus`'s dbus-broker.
///
/// This machine has no systemd as PID 1, but a user manager only checks that
/// `/run/systemd/system` exists: the namespace gets a tmpfs on `/run/systemd` (and on the
/// journal's directories, so that nothing is written outside), `XDG_RUNTIME_DIR`, `HOME` and the
/// `XDG_*` homes are temporary directories, and the manager boots `basic.target` (sockets,
/// the session bus) rather than `default.target`, so that units enabled on the machine (an
/// installed restd package enables restd.service for every user) are not started behind the
/// test's back. `systemctl --user` and `journalctl` run inside the namespace through
/// `nsenter`; the session bus socket is in the runtime directory, which the test reaches
/// directly.
///
/// Where restd.service comes from (`Installation`): by default the committed unit and
/// activation file are installed under the temporary `XDG_CONFIG_HOME` / `XDG_DATA_HOME` (which
/// systemd and the bus search before /etc, /usr/local and /usr), their `ExecStart=`/`Exec=`
/// naming the built restd; with `RESTD_INSTALLED_PREFIX=/usr` the files a package installed
/// there are used as they are.
///
/// Which bus serves the session (`BusKind`) is decided here too, not by the machine: the
/// `dbus.service` in the temporary `XDG_CONFIG_HOME` is a copy of the kind's packaged unit
/// (installing the dbus-broker package makes it the machine's `dbus.service` for every user), and
/// with `BusConfiguration.private` a drop-in points it at the test bus's configuration file
/// instead of the stock session.conf.
///
///     let manager = try UserManager()
///     try manager.systemctl("start", "restd")
///     let client = try RestdClient(address: manager.bus.address)
///
/// `stop()` (at the latest when the object goes away) stops the manager by its PID (SIGTERM:
/// a user manager then stops every unit and exits), then any process it had started that is
/// still there, then journald. `@unchecked Sendable`: stored properties are immutable after
/// `init`; process state lives in `ChildProcess` under its lock.
final class UserManager: @unchecked Sendable {
    /// The session bus the manager runs (`$XDG_RUNTIME_DIR/bus`).
    struct SessionBus: BusEndpoint {
        let socketPath: String
        var address: String { "unix:path=\(socketPath)" }
    }

    /// What the session bus reads.
    enum BusConfiguration {
        /// The distribution's session.conf (standard service directories, the stock policy), as
        /// a user's session has it.
        case stock
        /// `PrivateBus.configuration`, the test bus's: only these service directories.
        case `private`(serviceDirectories: [String])
    }

    /// Where the manager finds restd.service and io.restd.Rest1.service.
    enum Installation: Equatable {
        /// The committed files, installed under the test's temporary prefix with `ExecStart=`
        /// and `Exec=` naming the restd under test (`BuildProducts`).
        case committed
        /// The files installed under this prefix (a package: /usr), used as they are.
        case installed(prefix: String)

        /// `.installed(prefix: $RESTD_INSTALLED_PREFIX)` when that is set, else `.committed`.
        static var current: Installation {
            if let prefix = ProcessInfo.processInfo.environment["RESTD_INSTALLED_PREFIX"], !prefix.isEmpty {
                return .installed(prefix: prefix)
            }
            return .committed
        }
    }

    static let systemdExecutable = "/lib/systemd/systemd"
    static let journaldExecutable = "/lib/systemd/systemd-journald"

    /// Why no user manager can run here, or nil when one can. Mounting in a private mount
    /// namespace needs root; a container may also refuse unshare(2).
    static let unavailableReason: String? = {
        if geteuid() != 0 { return "not root (a private mount namespace for /run/systemd needs root)" }
        for program in ["unshare", "nsenter"] where ChildEnvironment.which(program) == nil {
            return "\(program) not found (Debian package util-linux)"
        }
        for program in [systemdExecutable, journaldExecutable] where access(program, X_OK) != 0 {
            return "\(program) not found (Debian package systemd)"
        }
        let probe = Command.run(["unshare", "--mount", "--propagation", "private", "true"])
        if !probe.succeeded {
            return "unshare --mount is refused here: \(probe.stderr.trimmingCharacters(in: .whitespacesAndNewlines))"
        }
        return nil
    }()

    /// Why tests of a user manager may be skipped here: none can run, and the run asked for
    /// nothing that needs one (the default bus, the committed files). Nil when they must run,
    /// and then fail if they cannot.
    static let skipReason: String? = {
        guard let reason = unavailableReason, Installation.current == .committed,
            (try? BusKind.current()) == .dbusDaemon
        else { return nil }
        return "no systemd user manager here: \(reason)"
    }()

    let installation: Installation
    let directory: TempDirectory
    let runtimeDirectory: String
    let home: String
    let configHome: String
    let dataHome: String
    let stateHome: String
    let bus: SessionBus
    let busKind: BusKind
    /// The configuration file the bus reads instead of session.conf (`BusConfiguration.private`).
    let busConfigurationPath: String?
    /// The restd that restd.service runs.
    let restdExecutable: String
    private let manager: ChildProcess
    private let journald: ChildProcess
    private let logPath: String
    /// The boot script's list of the manager's cgroups.
    private let cgroupList: String

    /// Boots a manager. `dropIns` are written to `restd.service.d/NAME.conf` in the manager's
    /// configuration directory before it starts (e.g. a shorter `WatchdogSec=`), `config` to
    /// `$XDG_CONFIG_HOME/restd/config.toml`. `busKind` (this run's, `RESTD_TEST_BUS`, when nil)
    /// serves the session bus, reading `busConfiguration`; `unitEnvironment` is added to the
    /// environment of the units it starts (and so of the services the bus activates). `prefix`
    /// starts the name of its temporary directory.
    init(
        installation: Installation = .current, busKind: BusKind? = nil, busConfiguration: BusConfiguration = .stock,
        unitEnvironment: [String: String] = [:], dropIns: [String: String] = [:], config: String? = nil,
        prefix: String = "restd-um", timeout: Double = 30
    ) throws {
        let busKind = try busKind ?? BusKind.current()
        if let reason = Self.unavailableReason ?? busKind.missingReason {
            throw HarnessError.failed("no systemd user manager with \(busKind): \(reason)")
        }
        self.installation = installation
        self.busKind = busKind
        let directory = try TempDirectory(prefix: prefix)
        self.directory = directory
        runtimeDirectory = try directory.subdirectory("run")
        chmod(runtimeDirectory, 0o700)
        home = try directory.subdirectory("home")
        configHome = try directory.subdirectory("config")
        dataHome = try directory.subdirectory("data")
        stateHome = try directory.subdirectory("state")
        bus = SessionBus(socketPath: "\(runtimeDirectory)/bus")
        logPath = directory.path("manager.log")

        // A copy: a link to /usr/lib's dbus.service loses against the package's alias in /etc.
        try directory.write(
            "config/systemd/user/dbus.service", try String(contentsOfFile: busKind.packagedUnit, encoding: .utf8))
        switch busConfiguration {
        case .stock:
            busConfigurationPath = nil
        case .private(let serviceDirectories):
            let path = try directory.write(
                "bus.conf", PrivateBus.configuration(socketPath: bus.socketPath, serviceDirectories: serviceDirectories)
            )
            try directory.write(
                "config/systemd/user/dbus.service.d/test-bus.conf",
                "[Service]\nExecStart=\nExecStart=\(busKind.command(configuration: path))\n")
            busConfigurationPath = path
        }

        switch installation {
        case .committed:
            restdExecutable = try BuildProducts.executable("restd")
            let unit = ServiceTests.replacing(
                "ExecStart", with: restdExecutable,
                in: try ServiceTests.repositoryFile("systemd/restd.service"))
            try directory.write("config/systemd/user/restd.service", unit)
            let activation = ServiceTests.replacing(
                "Exec", with: restdExecutable,
                in: try ServiceTests.repositoryFile("dbus/io.restd.Rest1.service"))
            try directory.write("data/dbus-1/services/io.restd.Rest1.service", activation)
        case .installed(let prefix):
            restdExecutable = "\(prefix)/bin/restd"
        }
        for (name, text) in dropIns {
            try directory.write("config/systemd/user/restd.service.d/\(name).conf", text)
        }
        if let config { try directory.write("config/restd/config.toml", config) }

        let journaldConfiguration = try directory.write("journald.conf", Self.journaldConfiguration)
        let ready = directory.path("mounted")
        cgroupList = directory.path("cgroups")
        let log = try openLogFile(logPath)
        defer { close(log) }
        // unshare and then sh exec, so the child's PID is the manager's.
        manager = try ChildProcess(
            executable: ChildEnvironment.which("unshare")!,
            arguments: [
                "--mount", "--propagation", "private", "/bin/sh", "-c", Self.bootScript, "boot", ready,
                journaldConfiguration, (directory.path as NSString).lastPathComponent, cgroupList,
            ],
            environment: ChildEnvironment.make([
                "HOME": home, "XDG_RUNTIME_DIR": runtimeDirectory, "XDG_CONFIG_HOME": configHome,
                "XDG_DATA_HOME": dataHome, "XDG_STATE_HOME": stateHome,
            ]),
            stdout: log, stderr: log)
        do {
            try Self.wait(timeout: timeout, "the namespace's mounts (\(ready))", manager: manager, logPath: logPath) {
                FileManager.default.fileExists(atPath: ready)
            }
            journald = try ChildProcess(
                executable: ChildEnvironment.which("nsenter")!,
                arguments: ["-t", String(manager.pid), "-m", Self.journaldExecutable],
                // Its own messages on stderr, not in the machine's kernel log.
                environment: ChildEnvironment.make(["SYSTEMD_LOG_TARGET": "console"]),
                stdout: log, stderr: log)
        } catch {
            manager.killAndReap()
            Self.removeCgroups(listedIn: cgroupList)
            throw error
        }
        // The boot script waits for journald's socket, then execs the manager; the manager
        // is up once it reports a state other than starting.
        do {
            try Self.wait(timeout: timeout, "the user manager to finish starting", manager: manager, logPath: logPath) {
                [self] in
                let state = systemctl("is-system-running").output
                return state == "running" || state == "degraded"
            }
            if !unitEnvironment.isEmpty {
                let assignments = unitEnvironment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                let set = systemctl(["set-environment"] + assignments)
                if !set.succeeded { throw HarnessError.failed("\(set)") }
            }
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// Moves into a cgroup of its own, mounts, then waits for journald (started by `init` inside
    /// the namespace) and becomes the user manager, logging to that journal. $1: the file that
    /// says the mounts are done; $2: journald's configuration; $3: the name of the cgroup; $4:
    /// the file that lists the cgroup's directories (one per hierarchy: name=systemd and the
    /// unified one, on a hybrid machine).
    ///
    /// A user manager takes the cgroup it starts in as the root of its units' cgroups. Managers
    /// started from one cgroup would share unit cgroups (`session.slice/dbus.service`), and one
    /// stopping or killing a unit would end the other managers' processes in it. Joining is
    /// tried again: a manager rooted above (one started without a cgroup of its own) removes
    /// every empty cgroup below it when it exits, this one too before the shell is in it.
    private static let bootScript = """
        set -eu
        join() {
            for _ in 1 2 3 4 5 6 7 8 9 10; do
                mkdir -p "$1" 2>/dev/null && echo $$ 2>/dev/null >"$1/cgroup.procs" && return 0
            done
            echo "cannot move into the cgroup $1" >&2
            exit 1
        }
        while IFS=: read -r _ controllers path; do
            case "$controllers" in
            name=systemd) hierarchy=/sys/fs/cgroup/systemd ;;
            "") hierarchy=/sys/fs/cgroup; [ ! -f /sys/fs/cgroup/unified/cgroup.procs ] || hierarchy=/sys/fs/cgroup/unified ;;
            *) continue ;;
            esac
            echo "$hierarchy${path%/}/$3" >>"$4"
            join "$hierarchy${path%/}/$3"
        done </proc/self/cgroup
        mount -t tmpfs -o mode=0755 tmpfs /run/systemd
        mkdir /run/systemd/system /run/systemd/journal
        [ -d /run/log ] || mkdir /run/log
        mount -t tmpfs -o mode=0755 tmpfs /run/log
        mount --bind "$2" /etc/systemd/journald.conf
        : >"$1"
        while [ ! -S /run/systemd/journal/stdout ]; do sleep 0.01; done
        exec \(systemdExecutable) --user --unit=basic.target --log-target=journal
        """

    /// journald keeps its journal in the namespace's /run/log only, and neither reads nor writes
    /// the machine's kernel log.
    private static let journaldConfiguration = """
        [Journal]
        Storage=volatile
        ReadKMsg=no
        ForwardToSyslog=no
        ForwardToKMsg=no
        ForwardToConsole=no
        ForwardToWall=no
        Audit=no
        """

    /// The manager's PID (it is the child this object started).
    var pid: Int32 { manager.pid }

    /// What journald (and the manager, before it logs to the journal) printed on stderr.
    func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    // MARK: Commands inside the namespace

    /// `systemctl --user ARGS…` in the manager's namespace.
    @discardableResult
    func systemctl(_ args: String..., timeout: Double = 60) -> CommandResult {
        systemctl(args, timeout: timeout)
    }

    @discardableResult
    func systemctl(_ args: [String], timeout: Double = 60) -> CommandResult {
        inside(["systemctl", "--user", "--no-pager"] + args, timeout: timeout)
    }

    /// `journalctl ARGS…` in the manager's namespace (its journald's runtime journal).
    func journalctl(_ args: String...) -> CommandResult {
        inside(["journalctl", "--no-pager"] + args)
    }

    /// Runs `argv` with `nsenter -t PID -m` and the manager's environment variables.
    func inside(_ argv: [String], timeout: Double = 60) -> CommandResult {
        Command.run(
            ["nsenter", "-t", String(manager.pid), "-m"] + argv,
            environment: [
                "XDG_RUNTIME_DIR": runtimeDirectory, "HOME": home, "XDG_CONFIG_HOME": configHome,
                "SYSTEMD_COLORS": "0", "SYSTEMD_PAGER": "",
            ],
            timeout: timeout)
    }

    /// Unit properties (`systemctl --user show -p …`), by name.
    func properties(_ names: [String], of unit: String = "restd.service") -> [String: String] {
        let result = systemctl("show", unit, "-p", names.joined(separator: ","))
        var values: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return values
    }

    func property(_ name: String, of unit: String = "restd.service") -> String {
        properties([name], of: unit)[name] ?? ""
    }

    /// restd.service's main PID, 0 when it has none.
    var restdPID: Int32 { Int32(property("MainPID")) ?? 0 }

    /// Waits (generous timeout) until every property of `unit` has the given value; returns all
    /// of them as last read. A condition to wait on, never a delay.
    @discardableResult
    func waitFor(
        _ expected: [String: String], of unit: String = "restd.service", timeout: Double = 60
    ) throws -> [String: String] {
        var last: [String: String] = [:]
        try Self.wait(
            timeout: timeout, "\(unit) to have \(expected)", manager: manager, logPath: logPath,
            details: { "last seen: \(last)\n\(self.diagnostics())" }
        ) { [self] in
            last = properties(
                Array(expected.keys) + ["ActiveState", "SubState", "MainPID", "NRestarts", "Result"], of: unit)
            return expected.allSatisfy { last[$0.key] == $0.value }
        }
        return last
    }

    /// `systemctl --user status UNIT` and the journal, for failure messages.
    func diagnostics(unit: String = "restd.service") -> String {
        "--- systemctl --user status \(unit):\n\(systemctl("status", unit).stdout)"
            + "--- journal:\n\(journalctl("-o", "short-monotonic").stdout)--- journald's own log:\n\(log())"
    }

    /// Journal entries (journalctl's JSON, one object per line) that match `matches`
    /// (`FIELD=value`), each as field name → value. Binary values (arrays) are left out.
    func journalEntries(_ matches: String...) throws -> [[String: String]] {
        let result = inside(["journalctl", "--no-pager", "-o", "json"] + matches)
        return try result.stdout.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            return object.compactMapValues { $0 as? String }
        }
    }

    // MARK: Stopping

    /// Stops the manager by its PID (SIGTERM, SIGKILL after 30 s), then kills whatever is
    /// still in its cgroup (only this manager's processes are there), removes the cgroup, and
    /// stops journald. Safe to call more than once.
    func stop() {
        if manager.isRunning {
            manager.signal(SIGTERM)
            if manager.wait(timeout: 30) == nil { manager.killAndReap() }
        }
        Self.removeCgroups(listedIn: cgroupList)
        journald.stop(grace: 10)
    }

    /// Kills every process left in the cgroups the boot script listed, then removes them.
    private static func removeCgroups(listedIn list: String) {
        let cgroups = ((try? String(contentsOfFile: list, encoding: .utf8)) ?? "").split(separator: "\n").map(
            String.init)
        for cgroup in cgroups {
            for pid in processes(in: cgroup) { kill(pid, SIGKILL) }
        }
        for cgroup in cgroups {
            try? waitUntil("the processes in \(cgroup) to end", timeout: 10) { processes(in: cgroup).isEmpty }
            removeCgroup(cgroup)
        }
    }

    /// The processes in `cgroup` and below it.
    private static func processes(in cgroup: String) -> [Int32] {
        let members = ((try? String(contentsOfFile: "\(cgroup)/cgroup.procs", encoding: .utf8)) ?? "")
            .split(separator: "\n").compactMap { Int32($0) }
        return members + subgroups(of: cgroup).flatMap { processes(in: $0) }
    }

    private static func subgroups(of cgroup: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cgroup)) ?? []).map { "\(cgroup)/\($0)" }.filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && isDirectory.boolValue
        }
    }

    /// rmdir(2), deepest first: a cgroup goes only once it is empty and has no children.
    private static func removeCgroup(_ cgroup: String) {
        for subgroup in subgroups(of: cgroup) { removeCgroup(subgroup) }
        rmdir(cgroup)
    }

    /// `waitUntil`, giving up early if the manager exits; the error ends with `details`, its log
    /// unless told otherwise.
    private static func wait(
        timeout: Double, _ what: String, manager: ChildProcess, logPath: String,
        details: (() -> String)? = nil, until condition: () -> Bool
    ) throws {
        try waitUntil(
            what, timeout: timeout, givingUpIf: { manager.termination.map { "the user manager \($0)" } },
            details: details ?? { "--- its log:\n" + ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "") },
            condition)
    }
}
