import DBusKit
import Foundation
import ProcessHarness
import RestProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Everything restd shows of one scripted session, compared with a stored record of it: timers
/// paused, adjusted and skipped, sets, a workout to its end, a rest followed on a mocked strap that
/// drops out and comes back, a reload and a restart. The record holds the introspection and GetAll
/// of every object, GetManagedObjects, every signal in order, and the state file's rows, with only
/// what must vary between runs written as a placeholder: instants, and durations and shares
/// (a rest's heart-rate coverage) measured in real time. A change to how restd carries out a change (its one path) must leave it equal, byte for
/// byte; a change to what restd shows updates the record on purpose
/// (`RESTD_RECORD_SESSION=1 swift test --filter ScriptedSessionTests`) and shows in the diff.
@Suite("A scripted session, compared with its record", .serialized)
struct ScriptedSessionTests {
    static let recordPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/scripted-session.txt").path

    static let config = """
        [recovery]
        target = "120bpm"
        min = "1s"
        hold = "1s"

        [live]
        heart_rate_staleness = "1s"
        """

    static let plan = """
        name = "Short day"

        [[exercise]]
        name = "Squat"
        sets = 1
        reps = 5
        weight = 100
        rest = "3m"

        [[exercise]]
        name = "Rows"
        sets = 1
        reps = 8
        """

    @Test("the session's bus objects, signals and state file are what the record says")
    func sessionMatchesItsRecord() throws {
        let (setup, strap) = try RestUntilRecoveredTests.withStrap(config: Self.config)
        var record = SessionRecord()
        let bus = setup.session
        func run(_ args: String...) {
            let result = restctl(bus, args, environment: ["LC_ALL": "C.UTF-8", "TZ": "UTC"])
            #expect(result.succeeded, "\(result)")
            record.line("$ restctl \(args.joined(separator: " ")) → \(result.status)")
        }
        func call(_ path: String, _ interface: String, _ member: String, _ args: String...) {
            let result = busctl(bus, ["call", RestBus.name, path, interface, member] + args)
            #expect(result.succeeded, "\(result)")
            record.line("$ busctl call \(path) \(interface) \(member) → \(result.status)")
        }

        // Timers: one paused and adjusted, one skipped, one cancelled.
        run("start", "10m", "--id", "plain", "--label", "Plank")
        run("pause", "--id", "plain")
        run("add", "30s", "--id", "plain")
        run("start", "5m", "--id", "gone")
        run("cancel", "--id", "gone")
        // Sets: a rest chosen for them, one skipped.
        run("set", "--id", "bench", "--exercise", "Bench press", "--reps", "8", "--weight", "60", "--rest", "90s")
        run("set", "--id", "bench", "--reps", "6", "--failed", "--rest", "2m")
        run("skip", "--id", "bench")
        // A workout walked to its end.
        call(RestBus.workoutPath, RestBus.workoutInterface, "Start", "s", Self.plan)
        call(
            RestBus.managerPath, RestBus.managerInterface, "CompleteSet", "ssa{sv}", "lifts", "", "0")
        call(
            RestBus.managerPath, RestBus.managerInterface, "CompleteSet", "ssa{sv}", "lifts", "", "0")
        // A followed rest: the strap at 150 bpm during the set, silent for its timeout (the rest
        // runs to its maximum), back at 100 bpm (it may end on recovery again), recovered.
        for _ in 0..<3 { try setup.bluez.notify(strap, RecoveryNumbersTests.bpm(150)) }
        try setup.waitForFieldsByGdbus(containing: "'heart_rate': <int64 150>")
        run("set", "--exercise", "Squat", "--reps", "5", "--rest", "2m", "--until-recovered")
        try setup.signals.waitFor("the rest marked as its strap lost") { message in
            message.member == "PropertiesChanged" && "\(message.arguments())".contains("sensor_lost")
        }
        try setup.bluez.notify(strap, RecoveryNumbersTests.bpm(100))
        try setup.waitForExpired()
        // The live activity's heart rate gone stale, so that what it shows no longer moves.
        try waitUntil("the live heart rate gone stale") { !setup.fieldsByGdbus().contains("heart_rate") }
        // A reload (SIGHUP) with a new default duration.
        try setup.configHome.write("default_duration = \"2m\"\n" + Self.config)
        setup.restd.signal(SIGHUP)
        try setup.signals.waitFor("the new default duration") { message in
            message.member == "PropertiesChanged" && "\(message.arguments())".contains("DefaultDurationUSec")
        }
        record.line("$ kill -HUP restd")
        record.snapshot("after the session", bus: bus)
        record.signals(setup.signals)
        record.stateFile(setup.restdSetup.state)

        // A restart on the same state.
        setup.restd.terminate()
        #expect(try setup.restd.waitForExit() == 0)
        record.stateFile(setup.restdSetup.state)
        try setup.startRestd()
        try waitUntil("the live heart rate gone stale") { !setup.fieldsByGdbus().contains("heart_rate") }
        record.snapshot("after a restart", bus: bus)
        record.signals(setup.signals)

        try record.compare(withFileAt: Self.recordPath)
    }
}

/// The text of a session's record: what a test saw, one fact a line, in a stable order.
struct SessionRecord {
    private(set) var text = ""

    mutating func line(_ line: String) { text += line + "\n" }

    /// Introspection of every object, GetAll of each of its interfaces, and GetManagedObjects.
    mutating func snapshot(_ title: String, bus: TestBus) {
        line("## \(title)")
        let connection: Connection
        do {
            connection = try Connection.open(address: bus.address)
        } catch {
            line("cannot connect: \(error)")
            return
        }
        var paths = ["/"]
        var index = 0
        while index < paths.count {
            let path = paths[index]
            index += 1
            guard
                let xml = call(
                    connection, path, "org.freedesktop.DBus.Introspectable", "Introspect", []
                )?.first?.string
            else { continue }
            line("### \(path) Introspect")
            text += xml
            for child in Self.children(xml) { paths.append(path == "/" ? "/" + child : path + "/" + child) }
            for interface in Self.interfaces(xml) where !interface.hasPrefix("org.freedesktop.DBus.") {
                guard
                    let reply = call(
                        connection, path, "org.freedesktop.DBus.Properties", "GetAll", [.string(interface)])
                else { continue }
                line("### \(path) GetAll \(interface)")
                line(reply.map { ValueText.render($0, key: nil) }.joined(separator: " "))
            }
        }
        if let reply = call(
            connection, RestBus.managerPath, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects", [])
        {
            line("### GetManagedObjects")
            line(reply.map { ValueText.render($0, key: nil) }.joined(separator: " "))
        }
    }

    /// The signals received since the last call, in order, and forgets them. The live
    /// activity's own (heart rate as it comes) move with the strap's timing, and are left out.
    mutating func signals(_ watcher: SignalWatcher) {
        watcher.connection.dispatchAvailable()
        line("## signals")
        for message in watcher.received where message.path != RestBus.livePath {
            let arguments = message.arguments().map { ValueText.render($0, key: nil) }.joined(separator: " ")
            line("\(message.path ?? "") \(message.interface ?? "").\(message.member ?? "") \(arguments)")
        }
        watcher.discardReceived()
    }

    /// Every table of the state file (schema and rows, in rowid order), through Python's sqlite3.
    mutating func stateFile(_ state: TempDirectory) {
        let script = """
            import sqlite3, sys, re
            db = sqlite3.connect(sys.argv[1])
            print("user_version", db.execute("PRAGMA user_version").fetchone()[0])
            tables = [r for r in db.execute("SELECT name, sql FROM sqlite_master WHERE type IN ('table','index') ORDER BY name")]
            for name, sql in tables:
                print("schema", name, sql)
            for name, sql in tables:
                if sql is None or not sql.startswith("CREATE TABLE"):
                    continue
                cursor = db.execute('SELECT * FROM "%s" ORDER BY rowid' % name)
                columns = [d[0] for d in cursor.description]
                for row in cursor:
                    cells = []
                    for column, value in zip(columns, row):
                        if isinstance(value, bytes):
                            value = "<blob>"
                        elif isinstance(value, int) and re.search(r"usec|_at$", column):
                            if value >= 10**12:
                                value = "<instant>"
                            elif value % 1000000 != 0:
                                value = "<measured>"
                        elif isinstance(value, float) and re.search(r"usec|_at$|coverage", column):
                            value = "<measured>" if value != int(value) else value
                        cells.append("%s=%r" % (column, value))
                    print(name, " ".join(cells))
            """
        let result = Command.run(
            [NotificationServer.python, "-c", script, StateFile(in: state).path])
        line("## state file")
        text += result.succeeded ? result.stdout : "cannot read it: \(result)\n"
    }

    /// Equal to the stored record, or a failure with the first lines that differ; with
    /// RESTD_RECORD_SESSION=1, writes the record instead.
    func compare(withFileAt path: String) throws {
        if ProcessInfo.processInfo.environment["RESTD_RECORD_SESSION"] == "1" {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let stored = try String(contentsOfFile: path, encoding: .utf8)
        guard stored != text else { return }
        let old = stored.split(separator: "\n", omittingEmptySubsequences: false)
        let new = text.split(separator: "\n", omittingEmptySubsequences: false)
        var differences: [String] = []
        for index in 0..<max(old.count, new.count) where differences.count < 20 {
            let a = index < old.count ? String(old[index]) : "<none>"
            let b = index < new.count ? String(new[index]) : "<none>"
            if a != b { differences.append("line \(index + 1):\n  recorded: \(a)\n  now:      \(b)") }
        }
        let report = differences.joined(separator: "\n")
        Issue.record("the session differs from \(path):\n\(report)")
    }

    private func call(
        _ connection: Connection, _ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue]
    ) -> [DBusValue]? {
        do {
            let message = try Message.methodCall(
                destination: RestBus.name, path: path, interface: interface, member: member)
            try message.append(arguments)
            return try connection.callBlocking(message, timeoutMilliseconds: 30_000).arguments()
        } catch {
            return nil
        }
    }

    /// The `<node name="…"/>` children of an introspection.
    static func children(_ xml: String) -> [String] {
        matches(of: #"<node name="([^"]+)"/>"#, in: xml)
    }

    static func interfaces(_ xml: String) -> [String] {
        matches(of: #"<interface name="([^"]+)">"#, in: xml)
    }

    private static func matches(of pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}

/// One D-Bus value as a line of text, with what varies from run to run as a placeholder: an
/// instant (any integer of 10¹² µs or more: no duration restd holds is so long), and, under a
/// name that says time (`…USec`, `…_usec`, `…_at`), a duration that is not a whole second
/// (measured in real time, not planned).
enum ValueText {
    static func render(_ value: DBusValue, key: String?) -> String {
        switch value {
        case .byte(let v): return "y\(v)"
        case .boolean(let v): return v ? "true" : "false"
        case .int16(let v): return number(Int64(v), key: key)
        case .uint16(let v): return number(Int64(v), key: key)
        case .int32(let v): return number(Int64(v), key: key)
        case .uint32(let v): return number(Int64(v), key: key)
        case .int64(let v): return number(v, key: key)
        case .uint64(let v): return v >= 1_000_000_000_000 ? "<instant>" : number(Int64(v), key: key)
        case .double(let v): return isTime(key) && v.rounded() != v ? "<measured>" : "\(v)"
        case .string(let v): return "\"\(v)\""
        case .objectPath(let v): return "o\"\(v)\""
        case .signature(let v): return "g\"\(v)\""
        case .unixFD: return "<fd>"
        case .variant(let v): return "<\(render(v, key: key))>"
        case .array(_, let values): return "[" + values.map { render($0, key: key) }.joined(separator: ", ") + "]"
        case .dictionary(_, _, let entries):
            let rendered = entries.map { entry -> String in
                let name = entry.key.string
                return "\(render(entry.key, key: nil)): \(render(entry.value, key: name ?? key))"
            }
            return "{" + rendered.sorted().joined(separator: ", ") + "}"
        case .structure(let values): return "(" + values.map { render($0, key: key) }.joined(separator: ", ") + ")"
        }
    }

    private static func number(_ value: Int64, key: String?) -> String {
        if value >= 1_000_000_000_000 { return "<instant>" }
        if isTime(key) && value % 1_000_000 != 0 { return "<measured>" }
        return "\(value)"
    }

    private static func isTime(_ key: String?) -> Bool {
        guard let key else { return false }
        return key.hasSuffix("USec") || key.lowercased().contains("usec") || key.hasSuffix("_at")
            || key.hasSuffix("At")
    }
}
