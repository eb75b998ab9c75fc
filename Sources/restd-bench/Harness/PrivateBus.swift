import Foundation
import Glibc

/// A private `dbus-daemon` of session type with a minimal configuration of its own: it
/// listens in a fresh temporary directory, lets everyone send, receive and own names, and
/// activates only from the service directories given (none by default).
final class PrivateBus {
    let address: String
    let directory: TempDirectory
    private let child: Child
    private let addressPipe: Int32

    var pid: pid_t { child.pid }

    init(serviceDirectories: [String] = []) throws {
        guard let daemon = which("dbus-daemon") else {
            throw BenchError("dbus-daemon was not found (Debian package dbus-daemon; `make deps` installs it)")
        }
        directory = try TempDirectory(prefix: "restd-bench-bus")
        let config = directory.file("bus.conf")
        try Self.configuration(socket: directory.file("bus"), serviceDirectories: serviceDirectories)
            .write(toFile: config, atomically: true, encoding: .utf8)
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw BenchError.system("pipe") }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        let log = try openLog(directory.file("bus.log"))
        defer { close(log) }
        do {
            child = try Child(daemon, ["--config-file=\(config)", "--nofork", "--nopidfile", "--print-address=1"],
                              environment: childEnvironment(), stdout: fds[1], stderr: log)
        } catch {
            close(fds[0])
            close(fds[1])
            throw error
        }
        close(fds[1])
        addressPipe = fds[0]
        guard let line = readLine(fds[0], timeout: 30), !line.isEmpty else {
            child.stop(grace: 1)
            close(fds[0])
            let log = (try? String(contentsOfFile: directory.file("bus.log"), encoding: .utf8)) ?? ""
            throw BenchError("dbus-daemon printed no address; its log:\n\(log)")
        }
        address = line
    }

    deinit {
        child.stop(grace: 5)
        close(addressPipe)
    }

    static func configuration(socket: String, serviceDirectories: [String]) -> String {
        let services = serviceDirectories.map { "  <servicedir>\($0)</servicedir>\n" }.joined()
        return """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <!-- Private bus of restd-bench. -->
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
        \(services)  <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow receive_sender="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
          <!-- Same limits as the stock session bus, and room for thousands of calls in flight. -->
          <limit name="max_incoming_bytes">1000000000</limit>
          <limit name="max_outgoing_bytes">1000000000</limit>
          <limit name="max_message_size">1000000000</limit>
          <limit name="service_start_timeout">120000</limit>
          <limit name="max_replies_per_connection">50000</limit>
          <limit name="max_match_rules_per_connection">50000</limit>
        </busconfig>

        """
    }
}

/// Reads one line from `fd`, waiting at most `timeout` seconds; nil on timeout or end of file.
func readLine(_ fd: Int32, timeout: Double) -> String? {
    let deadline = Clock.monotonic + timeout
    var buffer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 256)
    while true {
        if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            return String(decoding: buffer[..<newline], as: UTF8.self)
        }
        let remaining = deadline - Clock.monotonic
        if remaining <= 0 { return nil }
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = Glibc.poll(&pfd, 1, Int32(remaining * 1000) + 1)
        if ready < 0 && errno == EINTR { continue }
        if ready <= 0 { continue }
        let count = read(fd, &chunk, chunk.count)
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { return nil }
        buffer += chunk[..<count]
    }
}
