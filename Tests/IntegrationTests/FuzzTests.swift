import DBusKit
import Foundation
import ProcessHarness
import RestClient
import RestProtocol
import SeededRandom
import Testing

/// Random well-formed messages — random signatures, members and bodies — to every object and
/// interface. restd must stay up, still answer, and not grow. 10 s in CI; set
/// RESTD_FUZZ_SECONDS for a longer run.
@Suite("Fuzzing", .serialized, .tags(.slow, .everyBus))
struct FuzzTests {
    static let seconds = Double(ProcessInfo.processInfo.environment["RESTD_FUZZ_SECONDS"] ?? "") ?? 10
    /// Under AddressSanitizer freed memory sits in quarantine, so RSS says nothing about growth:
    /// the memory checks belong to the plain run (`make test-asan` sets RESTD_SANITIZER).
    static let measuresMemory = ProcessInfo.processInfo.environment["RESTD_SANITIZER"] == nil

    static let paths = [
        RestBus.managerPath, RestBus.livePath, RestBus.historyPath, RestBus.timersPath, RestBus.timerPath(id: "fuzz"),
        RestBus.timerPath(id: "default"), "/", "/io", "/io/restd/Rest1/timer/nope", "/x/y",
    ]
    static let interfaces: [String?] = [
        RestBus.managerInterface, RestBus.timerInterface, RestBus.liveInterface,
        RestBus.historyInterface,
        "org.freedesktop.DBus.Properties", "org.freedesktop.DBus.Introspectable",
        "org.freedesktop.DBus.ObjectManager", "org.freedesktop.DBus.Peer",
        "org.example.Nope", nil,
    ]
    static let members = [
        "Start", "Pause", "Resume", "Adjust", "Restart", "Cancel", "Update", "End", "Subscribe",
        "Unsubscribe", "Get", "GetAll", "Set", "Introspect", "GetManagedObjects", "Ping", "Nope",
        "CompleteSet", "Skip", "Sets", "SetRows", "Rests", "Exercises", "Stats",
    ]

    static func randomString(_ random: inout SplitMix64) -> String {
        let pool: [String] = [
            "", "default", "fuzz", "label", "next", "notify", "heart_rate", "progress_done",
            "x_k", "exercise", "io.restd.Rest1.Timer", "Id", "State", "é✓", "\u{1}", "a b",
        ]
        if Bool.random(using: &random) { return pool.randomElement(using: &random)! }
        let length = Int.random(in: 0...40, using: &random)
        return String((0..<length).map { _ in Character(Unicode.Scalar(UInt8.random(in: 32...126, using: &random))) })
    }

    static func randomValue(_ random: inout SplitMix64, depth: Int = 0) -> DBusValue {
        let choice = Int.random(in: 0..<(depth > 2 ? 11 : 15), using: &random)
        switch choice {
        case 0: return .byte(UInt8.random(in: 0...255, using: &random))
        case 1: return .boolean(Bool.random(using: &random))
        case 2: return .int32(Int32.random(in: .min ... .max, using: &random))
        case 3: return .uint32(UInt32.random(in: 0 ... .max, using: &random))
        case 4: return .int64(Int64.random(in: .min ... .max, using: &random))
        case 5:
            return .uint64(
                [0, 1, 1_000_000, 90_000_000, .max, UInt64.random(in: 0 ... .max, using: &random)]
                    .randomElement(using: &random)!)
        case 6: return .double([0, -1, .nan, .infinity, 2, 1e300].randomElement(using: &random)!)
        case 7, 8: return .string(randomString(&random))
        case 9: return .objectPath(["/", "/a", "/io/restd/Rest1"].randomElement(using: &random)!)
        case 10: return .int16(Int16.random(in: .min ... .max, using: &random))
        case 11: return .variant(randomValue(&random, depth: depth + 1))
        case 12:
            let element = randomValue(&random, depth: depth + 1)
            return .array(element.type, (0..<Int.random(in: 0...3, using: &random)).map { _ in element })
        case 13:
            var entries: [String: DBusValue] = [:]
            for _ in 0..<Int.random(in: 0...5, using: &random) {
                entries[randomString(&random)] = randomValue(&random, depth: depth + 1)
            }
            return .vardict(entries)
        default:
            return .structure(
                (0..<Int.random(in: 1...3, using: &random)).map { _ in randomValue(&random, depth: depth + 1) })
        }
    }

    static func rss(_ pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    static func ping(_ connection: Connection) throws {
        let ping = try Message.methodCall(
            destination: RestBus.name, path: RestBus.managerPath,
            interface: "org.freedesktop.DBus.Peer", member: "Ping")
        _ = try connection.callBlocking(ping, timeoutMilliseconds: 30_000)
    }

    @Test("random messages for a while: restd stays up, answers Ping, RSS flat")
    func fuzz() throws {
        let daemon = try RunningDaemon()
        try daemon.client.start(id: "fuzz", durationUSec: 3_600_000_000)
        let connection = try Connection.open(address: daemon.bus.address)
        var random = SplitMix64(state: UInt64(ProcessInfo.processInfo.environment["RESTD_FUZZ_SEED"] ?? "") ?? 0xF022)
        var sent = 0
        var rssAfterWarmUp = 0
        let started = Stopwatch()
        while started.elapsed < Self.seconds {
            for _ in 0..<200 {
                let arguments = (0..<Int.random(in: 0...4, using: &random)).map { _ in Self.randomValue(&random) }
                guard
                    let message = try? Message.methodCall(
                        destination: RestBus.name, path: Self.paths.randomElement(using: &random)!,
                        interface: Self.interfaces.randomElement(using: &random)!,
                        member: Self.members.randomElement(using: &random)!),
                    (try? message.append(arguments)) != nil
                else { continue }
                connection.send(message)
                sent += 1
            }
            // Round-trip now and then, so that the bus queue stays bounded and restd is seen alive.
            try Self.ping(connection)
            while connection.readWriteDispatch(timeoutMilliseconds: 0), connection.outgoingBytes > 0 {}
            if rssAfterWarmUp == 0, started.elapsed > Self.seconds / 4 {
                rssAfterWarmUp = Self.rss(daemon.restd.pid)
            }
        }
        try Self.ping(connection)
        #expect(daemon.restd.isRunning, "\(daemon.restd.log())")
        let rssAtEnd = Self.rss(daemon.restd.pid)
        #expect(sent > 1000)
        if Self.measuresMemory {
            #expect(rssAtEnd - rssAfterWarmUp < 4096, "RSS grew from \(rssAfterWarmUp) kB to \(rssAtEnd) kB")
        }
        print(
            "fuzz: \(sent) messages in \(Self.seconds) s; RSS \(rssAfterWarmUp) kB after warm-up, \(rssAtEnd) kB at the end"
        )
    }
}
