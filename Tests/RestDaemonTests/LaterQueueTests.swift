import CSystemd
import EventLoop
import Glibc
import Testing

/// Work done in slices through a `LaterQueue` must leave the loop to what is pending between
/// two slices: a readable socket is served before the next slice, not after the last.
@Suite("Later queue")
struct LaterQueueTests {
    /// A pipe holding `bytes` bytes, and the loop reading one byte per dispatch.
    private final class ReadablePipe {
        let fds: [Int32]
        var source: IOSource?
        init(loop: EventLoop, bytes: Int, onRead: @escaping () -> Void) throws {
            var fds: [Int32] = [-1, -1]
            #expect(pipe(&fds) == 0)
            self.fds = fds
            let data = [UInt8](repeating: 1, count: bytes)
            #expect(write(fds[1], data, bytes) == bytes)
            let fd = fds[0]
            source = try loop.addIO(fd: fd, events: EPOLLIN.rawValue) { _ in
                var byte: UInt8 = 0
                _ = read(fd, &byte, 1)
                onRead()
            }
        }
        deinit {
            source = nil
            close(fds[0])
            close(fds[1])
        }
    }

    @Test("a readable socket is served between two slices")
    func interleavesWithPendingIO() throws {
        let loop = try EventLoop()
        let later = try LaterQueue(loop: loop)
        var events: [String] = []
        let input = try ReadablePipe(loop: loop, bytes: 3) { events.append("read") }
        var slices = 0
        func slice() {
            slices += 1
            events.append("slice \(slices)")
            if slices < 3 { later.run(slice) }
        }
        later.run(slice)
        for _ in 0..<50 where events.count < 6 { _ = try loop.runOnce(timeoutUSec: 1_000_000) }
        withExtendedLifetime(input) {}
        try #require(events.count == 6, "\(events)")

        // Never two slices in a row while a byte was left to read.
        let firstSlice = try #require(events.firstIndex(of: "slice 1"))
        for (earlier, later) in zip(events[firstSlice...], events[(firstSlice + 1)...]) {
            #expect(!(earlier.hasPrefix("slice") && later.hasPrefix("slice")), "\(events)")
        }
        #expect(events.filter { $0 == "read" }.count == 3 && slices == 3, "\(events)")
    }

    @Test("work queued by work runs in a later iteration, the rest in queued order")
    func runsInOrder() throws {
        let loop = try EventLoop()
        let later = try LaterQueue(loop: loop)
        var ran: [Int] = []
        later.run { ran.append(1) }
        later.run {
            ran.append(2)
            later.run { ran.append(4) }
        }
        later.run { ran.append(3) }
        _ = try loop.runOnce(timeoutUSec: 1_000_000)
        #expect(ran == [1, 2, 3])
        _ = try loop.runOnce(timeoutUSec: 1_000_000)
        #expect(ran == [1, 2, 3, 4])
    }
}
