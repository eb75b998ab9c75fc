import Clocks
import Foundation
import Glibc

/// What a sound server's source (a null sink's monitor) plays, recorded by `parec` as 16-bit mono
/// at 16 kHz, with the monotonic time at which each piece arrived: a sample's moment is known to
/// within the recording's latency (10 ms asked), so onsets can be compared with the moments a
/// test or the benchmark meant (`time(ofSample:)`).
///
/// `@unchecked Sendable`: the recorded pieces are in `Capture`, under its lock.
public final class Recording: @unchecked Sendable {
    public static let rate = 16_000
    private let child: ChildProcess
    private let capture: Capture

    init(source: String, environment: [String: String]) throws {
        guard let parec = ChildEnvironment.which("parec") else {
            throw ProcessHarnessError("parec not found (Debian package pulseaudio-utils; 'make test' installs it)")
        }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw ProcessHarnessError.system("pipe") }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        do {
            child = try ChildProcess(
                executable: parec,
                arguments: [
                    "-d", source, "--raw", "--format=s16le", "--rate=\(Self.rate)", "--channels=1",
                    "--latency-msec=10",
                ], environment: environment, stdout: fds[1])
        } catch {
            close(fds[0])
            close(fds[1])
            throw error
        }
        close(fds[1])
        capture = Capture(fd: fds[0])
        // Reads until parec's end closes the pipe, then closes its end.
        Thread { [capture] in capture.readAll() }.start()
    }

    deinit { _ = child.killAndReap() }

    /// Waits until the first piece arrived: a null sink that played nothing may render in long
    /// blocks (PulseAudio's, 2 s) until a recording asks for a short latency.
    func waitForFirstPiece(timeout: Double) throws {
        let deadline = Deadline(secondsFromNow: timeout)
        while capture.locked({ $0.arrivals.isEmpty }) {
            if let end = child.termination { throw ProcessHarnessError("parec \(end) before recording anything") }
            if deadline.hasPassed { throw ProcessHarnessError("parec recorded nothing within \(timeout) s") }
            // Nothing to wait on from this thread: the reader appends as pieces come.
            usleep(5_000)
        }
    }

    private var samples: [Int16] { capture.locked { $0.samples } }

    /// The pieces read from parec, and when each arrived.
    ///
    /// `@unchecked Sendable`: every field is touched only under `lock`, but `fd`, which only the
    /// reading thread uses.
    private final class Capture: @unchecked Sendable {
        let fd: Int32
        let lock = NSLock()
        var samples: [Int16] = []
        /// (samples received so far, CLOCK_MONOTONIC seconds) at each read.
        var arrivals: [(count: Int, seconds: Double)] = []

        init(fd: Int32) { self.fd = fd }

        func locked<T>(_ body: (Capture) -> T) -> T {
            lock.lock()
            defer { lock.unlock() }
            return body(self)
        }

        func readAll() {
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: 4096)
            var carry: UInt8?
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                let now = KernelClock.monotonicSeconds
                var bytes = ArraySlice(buffer[0..<count])
                var decoded: [Int16] = []
                decoded.reserveCapacity(count / 2 + 1)
                if let low = carry, let high = bytes.first {
                    decoded.append(Int16(bitPattern: UInt16(low) | UInt16(high) << 8))
                    bytes = bytes.dropFirst()
                    carry = nil
                }
                var index = bytes.startIndex
                while index + 1 < bytes.endIndex {
                    decoded.append(Int16(bitPattern: UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8))
                    index += 2
                }
                if index < bytes.endIndex { carry = bytes[index] }
                lock.lock()
                samples += decoded
                arrivals.append((samples.count, now))
                lock.unlock()
            }
        }
    }

    /// Whether `parec` still records.
    public var isRecording: Bool { child.isRunning }

    /// The samples so far.
    public var recorded: [Int16] { samples }

    /// Seconds recorded so far.
    public var seconds: Double { Double(recorded.count) / Double(Self.rate) }

    /// The CLOCK_MONOTONIC moment (seconds) of a moment of the recording (seconds from its start),
    /// from when the piece holding it arrived: a piece can only arrive after its last sample was
    /// played. The recording need not be continuous (a server may pause an idle sink), and the
    /// moment is late by at most the piece's delivery (the 10 ms latency asked, and scheduling).
    public func monotonic(_ secondsIntoRecording: Double) -> Double? {
        let sample = Int((secondsIntoRecording * Double(Self.rate)).rounded())
        return capture.locked { capture in
            guard let piece = capture.arrivals.first(where: { $0.count > sample }) else { return nil }
            return piece.seconds - Double(piece.count - sample) / Double(Self.rate)
        }
    }

    /// The moment of the recording (seconds from its start) that was played at the CLOCK_MONOTONIC
    /// moment `monotonic` (seconds): the inverse of `monotonic(_:)`, nil until a piece played at or
    /// after that moment has arrived (so a test waits until it is non-nil before looking there).
    public func secondsIntoRecording(atMonotonic monotonic: Double) -> Double? {
        capture.locked { capture in
            guard let piece = capture.arrivals.first(where: { $0.seconds >= monotonic }) else { return nil }
            let sample = Double(piece.count) - (piece.seconds - monotonic) * Double(Self.rate)
            return max(0, sample) / Double(Self.rate)
        }
    }

    /// The loudness of what was recorded so far.
    public func loudness() -> Loudness { Loudness(samples: recorded, rate: Self.rate) }

    /// Stops recording; what was recorded stays readable.
    public func stop() {
        child.signal(SIGTERM)
        _ = child.wait(timeout: 5)
    }
}
