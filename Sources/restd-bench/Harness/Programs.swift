import Foundation
import Glibc
import ProcessHarness

/// The path of `program` found on PATH (or in /usr/bin, /bin), nil when there is none.
func which(_ program: String) -> String? {
    ChildEnvironment.which(program) ?? ChildEnvironment.which(program, path: "/usr/bin:/bin")
}

/// Runs a program to its end and returns its standard output (for `swift --version`, git).
func captureOutput(
    _ executable: String, _ arguments: [String],
    environment: [String: String] = ChildEnvironment.make()
) -> String? {
    guard let file = tmpfile() else { return nil }
    defer { fclose(file) }
    guard
        let child = try? ChildProcess(
            executable: executable, arguments: arguments, environment: environment,
            stdout: fileno(file))
    else {
        return nil
    }
    guard (child.wait(timeout: 20) ?? child.stop(grace: 1)) == .exited(0) else { return nil }
    rewind(file)
    var output = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count <= 0 { break }
        output += buffer[..<count]
    }
    return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}
