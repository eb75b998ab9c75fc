import Foundation
import ProcessHarness
import RestClient
import RestProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What restd sends to the journal, seen by a stand-in journald: restd runs in a private mount
/// namespace (`unshare -m`, so root only) whose /run is a fresh tmpfs with a datagram socket
/// at /run/systemd/journal/socket, where sd_journal_sendv delivers. Nothing outside the
/// namespace sees the socket.
@Suite(
    "Journal", .serialized, .enabled(if: JournalHarness.isAvailable, "needs root and unshare(1) for a private /run"),
    .tags(.slow))
struct JournalTests {
    @Test("with JOURNAL_STREAM naming its stderr, restd sends structured entries and writes nothing on stderr")
    func structuredEntries() throws {
        let run = try JournalHarness(journalStream: .matching, brokenState: true)
        let client = try RestdClient(address: run.bus.address)
        let watcher = try SignalWatcher.restd(bus: run.bus)
        try client.start(id: "squat", durationUSec: 1_000_000)
        try watcher.waitFor(where: { $0.member == "Expired" })
        let entries = try run.stop()

        #expect(run.standardError().isEmpty, "stderr: \(run.standardError())")
        let expired = try #require(entries.first { $0["MESSAGE"] == ["timer squat expired"] }, "\(entries)")
        #expect(expired["TIMER_ID"] == ["squat"])
        #expect(expired["MESSAGE_ID"] == [LogMessageIDs.timerExpired])
        #expect(expired["PRIORITY"] == ["6"])
        #expect(expired["SYSLOG_IDENTIFIER"] == ["restd"])
        #expect(expired["CODE_FILE"] == ["RestDaemon/ExpiryLog.swift"])
        #expect(expired["CODE_FUNC"]?.first?.hasPrefix("timersChanged") ?? false, "\(expired)")
        #expect(Int(expired["CODE_LINE"]?.first ?? "") != nil)
        #expect(expired["DEADLINE_USEC"]?.count == 1 && expired["LATE_USEC"]?.count == 1)

        let recovered = try #require(entries.first { $0["MESSAGE_ID"] == [LogMessageIDs.stateRecovered] }, "\(entries)")
        #expect(recovered["PRIORITY"] == ["4"])
        #expect(recovered["STATE_FILE"]?.first?.hasSuffix("/restd/state.sqlite") ?? false, "\(recovered)")
        #expect(recovered["MOVED"]?.first?.contains("state.sqlite.broken-") ?? false, "\(recovered)")
        #expect(recovered["MESSAGE"]?.first?.contains("moved aside") ?? false)
        #expect(entries.contains { $0["MESSAGE"] == ["stopping on signal SIGTERM"] }, "\(entries)")
    }

    @Test("with a JOURNAL_STREAM that is not its stderr, restd writes lines on stderr and sends nothing")
    func inheritedVariable() throws {
        let run = try JournalHarness(journalStream: .mismatched, brokenState: false)
        let entries = try run.stop()
        #expect(entries.isEmpty, "\(entries)")
        #expect(run.standardError().contains("info: serving 0 timer(s) as io.restd.Rest1"), "\(run.standardError())")
    }
}

/// One restd in a mount namespace with a stand-in journald, on a private test bus.
final class JournalHarness {
    enum Stream { case matching, mismatched }

    static let isAvailable: Bool = {
        guard geteuid() == 0, ChildEnvironment.which("unshare") != nil,
            ChildEnvironment.which("/usr/bin/python3") != nil
        else {
            return false
        }
        return Command.run(["unshare", "-m", "true"]).succeeded
    }()

    let setup: RestdSetup
    /// The scripts, the datagrams received and restd's stderr.
    let directory: TempDirectory
    /// The script that runs restd in the namespace (its output is the process's log).
    private let run: RestdProcess
    private let datagrams: String
    private let stderrPath: String
    var bus: TestBus { setup.bus }

    // Listens on the journal socket and appends each datagram to a file as <4-byte length><bytes>,
    // until the end marker the script sends once restd has exited. Datagrams on the socket are
    // read in the order they were sent, so everything restd sent is in the file by then (a
    // signal to stop could land between a recv and its write, and lose restd's last entry).
    private static let listener = """
        import socket, sys
        s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        s.bind("/run/systemd/journal/socket")
        out = open(sys.argv[1], "ab", buffering=0)
        open(sys.argv[2], "w").close()
        while True:
            data = s.recv(1 << 22)
            if data == b"RESTD_TEST_END":
                break
            out.write(len(data).to_bytes(4, "big") + data)
        """

    private static let endMarker = """
        import socket
        socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(b"RESTD_TEST_END", "/run/systemd/journal/socket")
        """

    // $1 restd, $2 listener, $3 datagram file, $4 ready marker, $5 stderr file, $6 JOURNAL_STREAM
    // mode, $7 the end-marker sender.
    private static let script = """
        set -eu
        mount -t tmpfs tmpfs /run
        mkdir -p /run/systemd/journal
        /usr/bin/python3 "$2" "$3" "$4" & listener=$!
        while [ ! -e "$4" ]; do kill -0 "$listener"; sleep 0.01; done
        : >"$5"
        if [ "$6" = matching ]; then export JOURNAL_STREAM=$(stat -c %d:%i "$5"); else export JOURNAL_STREAM=1:1; fi
        status=0
        "$1" 2>"$5" || status=$?
        /usr/bin/python3 "$7"
        wait "$listener"
        exit "$status"
        """

    /// restd started through the one fixture, run by `script` in a mount namespace of its own.
    init(journalStream: Stream, brokenState: Bool) throws {
        setup = try RestdSetup()
        directory = try TempDirectory(prefix: "restd-journal")
        let listener = try directory.write("listener.py", Self.listener)
        let endMarker = try directory.write("end-marker.py", Self.endMarker)
        let script = try directory.write("run.sh", Self.script)
        datagrams = directory.path("datagrams")
        stderrPath = directory.path("stderr")
        if brokenState {
            try setup.state.write("restd/state.sqlite", "not a database")
        }
        setup.executable = ChildEnvironment.which("unshare") ?? "/usr/bin/unshare"
        setup.arguments = [
            "-m", "--propagation", "private", "/bin/bash", script, try BuildProducts.executable("restd"),
            listener, datagrams, directory.path("listening"), stderrPath,
            journalStream == .matching ? "matching" : "mismatched", endMarker,
        ]
        run = try setup.launch()
        do {
            try run.waitUntilReady()
        } catch {
            throw HarnessError.failed("\(error)\n--- stderr:\n\(standardError())")
        }
    }

    deinit {
        if run.isRunning { _ = run.kill9() }
    }

    func standardError() -> String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// SIGTERM to restd (found through the bus), waits for the script to end, and returns the
    /// journal entries received, each as field name → values.
    func stop() throws -> [[String: [String]]] {
        let pid = busctl(
            bus, "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
            "GetConnectionUnixProcessID", "s", RestBus.name)
        guard let number = Int32(pid.output.replacingOccurrences(of: "u ", with: "")) else {
            throw HarnessError.failed("no pid for restd: \(pid)")
        }
        kill(number, SIGTERM)
        let status = try run.waitForExit()
        guard status == 0 else {
            throw HarnessError.failed(
                "the journal run ended with \(status)\n\(run.log())\n--- stderr:\n\(standardError())")
        }
        return Self.entries(try Data(contentsOf: URL(fileURLWithPath: datagrams)))
    }

    /// Decodes the journal's native protocol: `NAME=value\n`, or `NAME\n<u64 LE length><bytes>\n`.
    static func entries(_ file: Data) -> [[String: [String]]] {
        let bytes = [UInt8](file)
        var entries: [[String: [String]]] = []
        var offset = 0
        while offset + 4 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let datagram = Array(bytes[offset + 4..<min(bytes.count, offset + 4 + length)])
            offset += 4 + length
            var entry: [String: [String]] = [:]
            var index = 0
            while index < datagram.count {
                guard
                    let end = datagram[index...].firstIndex(where: {
                        $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "=")
                    })
                else { break }
                let name = String(decoding: datagram[index..<end], as: UTF8.self)
                if datagram[end] == UInt8(ascii: "=") {
                    let stop = datagram[end...].firstIndex(of: UInt8(ascii: "\n")) ?? datagram.count
                    entry[name, default: []].append(String(decoding: datagram[(end + 1)..<stop], as: UTF8.self))
                    index = stop + 1
                } else {
                    let size = datagram[(end + 1)..<(end + 9)].reversed().reduce(0) { $0 << 8 | Int($1) }
                    let start = end + 9
                    entry[name, default: []].append(String(decoding: datagram[start..<(start + size)], as: UTF8.self))
                    index = start + size + 1
                }
            }
            entries.append(entry)
        }
        return entries
    }
}
