import DBusKit
import Foundation
import ProcessHarness
import RestClient
import RestProtocol
import Testing

/// A full disk, a read-only state directory, and the bus going away.
@Suite("Damaged environment", .serialized)
struct DamagedEnvironmentTests {
    /// restd in a user and mount namespace of its own, with its state on a small tmpfs: the test
    /// can fill or remount that disk without root and without touching the machine's disks.
    final class SmallDisk {
        let daemon: RunningDaemon
        var restd: RestdProcess { daemon.restd }

        init(sizeKiB: Int = 512) throws {
            let setup = try RestdSetup()
            try setup.inMountNamespace(after: "mount -t tmpfs -o size=\(sizeKiB)k,mode=0700 tmpfs \"$XDG_STATE_HOME\"")
            daemon = try setup.start()
        }

        /// A path on restd's tmpfs, as the test sees it through restd's mount namespace.
        func path(_ name: String) -> String { "/proc/\(restd.pid)/root\(daemon.state.path)/\(name)" }

        /// Fills the disk to the last byte.
        func fill() {
            let handle =
                FileHandle(forWritingAtPath: path("filler"))
                ?? {
                    _ = FileManager.default.createFile(atPath: path("filler"), contents: nil)
                    return FileHandle(forWritingAtPath: path("filler"))!
                }()
            let chunk = Data(repeating: 0x55, count: 4096)
            while (try? handle.write(contentsOf: chunk)) != nil {}
            try? handle.close()
        }

        func free() throws { try FileManager.default.removeItem(atPath: path("filler")) }
    }

    static func isStorageFailure(_ error: Error) -> Bool {
        if case .refused(let refusal)? = error as? ClientError { return refusal.name == RestErrorName.storageFailed }
        return false
    }

    @Test("disk full: mutations refused clearly, timers still expire, writes work again when space returns")
    func diskFull() throws {
        let disk = try SmallDisk()
        let client = disk.daemon.client
        let watcher = try SignalWatcher.restd(bus: disk.daemon.bus)
        try client.start(id: "long", durationUSec: 3_600_000_000, label: "Before")
        try client.start(id: "short", durationUSec: 2_000_000)
        let long = try client.timer(id: "long")

        disk.fill()
        #expect { try client.start(id: "new", durationUSec: 60_000_000) } throws: { Self.isStorageFailure($0) }
        #expect { try client.pause(id: "long") } throws: { Self.isStorageFailure($0) }
        #expect { try client.cancel(id: "long") } throws: { Self.isStorageFailure($0) }
        // Nothing in memory diverged from what is stored ("short" may have expired meanwhile).
        #expect(try client.timers().map(\.id) == ["long", "short"])
        #expect(try client.timer(id: "long") == long)

        // The running timer still expires on time, full disk or not.
        try watcher.waitFor(where: { $0.member == "Expired" && $0.arguments().first == .string("short") })
        #expect(try client.timer(id: "short").state == "expired")
        #expect(disk.restd.isRunning)

        try disk.free()
        try client.start(id: "new", durationUSec: 60_000_000)
        try client.pause(id: "long")
        #expect(try client.timers().map(\.id) == ["long", "new", "short"])
        #expect(disk.restd.log().contains("could not"), "\(disk.restd.log())")
    }

    @Test("read-only state directory: restd serves what it has, refuses mutations, still expires timers")
    func readOnlyStateDirectory() throws {
        let daemon = try RunningDaemon()
        try daemon.client.start(id: "long", durationUSec: 3_600_000_000, label: "Kept")
        try daemon.client.start(id: "short", durationUSec: 10_000_000)
        let before = try daemon.client.timers()
        daemon.restd.terminate()
        #expect(try daemon.restd.waitForExit() == 0)
        // The read-only restd is to expire it: the first one must not have (a 10 s stall).
        try #require(!daemon.restd.log().contains("timer short expired"), "\(daemon.restd.log())")

        // The same state, read-only.
        let watcher = try SignalWatcher.restd(bus: daemon.bus)
        let runtime = try TempDirectory(prefix: "restd-runtime")
        let readOnly = try RestdSetup(
            bus: daemon.bus, state: daemon.state, environment: ["XDG_RUNTIME_DIR": runtime.path])
        try readOnly.readOnlyState()
        let served = try readOnly.start()
        let (restd, client) = (served.restd, served.client)
        #expect(try client.timers().map(\.id) == before.map(\.id))
        #expect { try client.start(id: "new", durationUSec: 60_000_000) } throws: { Self.isStorageFailure($0) }
        try watcher.waitFor(where: { $0.member == "Expired" && $0.arguments().first == .string("short") })
        #expect(try client.timer(id: "short").state == "expired")
        #expect(restd.log().contains("read-only"), "\(restd.log())")

        // The copy it served from is in a private directory under $XDG_RUNTIME_DIR, gone when it stops.
        let scratch = try FileManager.default.contentsOfDirectory(atPath: runtime.path)
        #expect(scratch.count == 1 && scratch.first?.hasPrefix("restd-readonly.") == true, "\(scratch)")

        // No lock on a read-only state, which no restd writes: a second restd, on another bus,
        // serves it too, from a copy of its own.
        let other = try RestdSetup(state: daemon.state, environment: ["XDG_RUNTIME_DIR": runtime.path])
        try other.readOnlyState()
        let second = try other.start()
        #expect(try second.client.timers().map(\.id) == before.map(\.id))
        second.restd.terminate()
        #expect(try second.restd.waitForExit() == 0, "\(second.log())")
        restd.terminate()
        #expect(try restd.waitForExit() == 0, "\(restd.log())")
        #expect(try FileManager.default.contentsOfDirectory(atPath: runtime.path).isEmpty)
    }

    @Test("the bus dies: restd exits non-zero at once, and on a new bus it has every timer")
    func busKilled() throws {
        let daemon = try RunningDaemon()
        try daemon.client.start(id: "a", durationUSec: 600_000_000, label: "kept")
        try daemon.client.start(id: "b", durationUSec: 300_000_000)
        try daemon.client.pause(id: "b")
        let before = try daemon.client.timers()

        daemon.bus.kill()
        let status = try daemon.restd.waitForExit()
        #expect(status != 0, "\(daemon.restd.log())")
        #expect(daemon.restd.log().contains("lost the connection to the bus"))

        let again = try RestdSetup(state: daemon.state).start()
        #expect(try again.client.timers() == before)
    }
}
