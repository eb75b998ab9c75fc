import DBusKit
import Foundation
import ProcessHarness
import RestClient
import RestProtocol
import SeededRandom
import Testing

/// Many mixed operations with subscribers attached: restd's memory must not grow.
/// CI runs 10,000 operations; RESTD_SOAK_OPERATIONS=1000000 is the one-hour soak.
@Suite("Soak", .serialized, .tags(.slow))
struct SoakTests {
    static let operations = Int(ProcessInfo.processInfo.environment["RESTD_SOAK_OPERATIONS"] ?? "") ?? 10_000

    @Test("mixed operations with subscribers attached: RSS growth under 1 MB after warm-up")
    func soak() throws {
        let daemon = try RunningDaemon()
        // Two subscribers that read (drained as the loop goes) and a broadcast listener.
        let subscribers = try (0..<2).map { _ in try SignalWatcher.restd(bus: daemon.bus) }
        for subscriber in subscribers {
            let subscribe = try Message.methodCall(
                destination: RestBus.name, path: RestBus.livePath,
                interface: RestBus.liveInterface, member: "Subscribe")
            try subscribe.append(.double(20))
            _ = try subscriber.connection.callBlocking(subscribe, timeoutMilliseconds: 30_000)
        }
        let client = daemon.client
        var random = SplitMix64(state: 0x50A1)
        var rssAfterWarmUp = 0
        var refused = 0
        for index in 0..<Self.operations {
            let id = "t\(Int.random(in: 0..<64, using: &random))"
            do throws(ClientError) {
                switch Int.random(in: 0..<10, using: &random) {
                case 0, 1:
                    try client.start(
                        id: id, durationUSec: UInt64.random(in: 3600...7200, using: &random) * 1_000_000,
                        label: "soak \(index)")
                case 2: try client.pause(id: id)
                case 3: try client.resume(id: id)
                case 4: try client.adjust(id: id, deltaUSec: 30_000_000)
                case 5: try client.restart(id: id)
                case 6: try client.cancel(id: id)
                default:
                    try client.updateLive([
                        "heart_rate": .int32(Int32.random(in: 60...190, using: &random)),
                        "progress_done": .int32(Int32(index % 5)), "progress_total": .int32(5),
                    ])
                }
            } catch {
                refused += 1  // no such timer, mostly: part of the mix
            }
            if index % 500 == 0 {
                for subscriber in subscribers { subscriber.discardReceived() }
            }
            if index == Self.operations / 5 { rssAfterWarmUp = FuzzTests.rss(daemon.restd.pid) }
        }
        let rssAtEnd = FuzzTests.rss(daemon.restd.pid)
        #expect(daemon.restd.isRunning)
        #expect(refused < Self.operations / 2)
        if FuzzTests.measuresMemory {
            #expect(rssAtEnd - rssAfterWarmUp < 1024, "RSS grew from \(rssAfterWarmUp) kB to \(rssAtEnd) kB")
        }
        print(
            "soak: \(Self.operations) operations (\(refused) refused); RSS \(rssAfterWarmUp) kB after warm-up, \(rssAtEnd) kB at the end"
        )
    }
}
