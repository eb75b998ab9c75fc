import Foundation
import Glibc

/// Debian's PulseAudio daemon as `scripts/unpack-pulseaudio.sh` unpacks it (`make test-deps`):
/// not installed, because the package conflicts with the PipeWire packages of a Debian desktop.
enum PulseAudioDaemon {
    /// Where the package is unpacked: `$RESTD_PULSEAUDIO`, else the script's default.
    static var root: String {
        let given = ProcessInfo.processInfo.environment["RESTD_PULSEAUDIO"] ?? ""
        return given.isEmpty ? "/var/cache/restd-test/pulseaudio" : given
    }

    /// The daemon's modules (`/usr/lib/pulse-VERSION/modules` inside the root).
    static func modules() throws -> String {
        let lib = "\(root)/usr/lib"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: lib)) ?? []
        guard let versioned = names.sorted().last(where: { $0.hasPrefix("pulse-") }) else {
            throw missing
        }
        return "\(lib)/\(versioned)/modules"
    }

    static func path() throws -> String {
        let path = "\(root)/usr/bin/pulseaudio"
        guard access(path, X_OK) == 0 else { throw missing }
        return path
    }

    /// The unpacked libraries first (the daemon's core, its modules' helpers, the libraries it
    /// needs beyond the machine's).
    static func environment() throws -> [String: String] {
        let libraries = [
            "\(root)/usr/lib/x86_64-linux-gnu", "\(root)/usr/lib/x86_64-linux-gnu/pulseaudio", try modules(),
        ]
        return ["LD_LIBRARY_PATH": libraries.joined(separator: ":")]
    }

    private static var missing: ProcessHarnessError {
        ProcessHarnessError(
            "no PulseAudio daemon unpacked in \(root): run scripts/unpack-pulseaudio.sh (make test-deps does)")
    }
}
