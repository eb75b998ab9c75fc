import Glibc

/// A failure of the bench itself (a process that would not start, a bus that would not
/// answer); the scenario it happens in is reported as failed, the others still run.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }

    /// errno as a sentence: "cannot bind /tmp/x: Address already in use".
    static func system(_ what: String, _ code: Int32 = errno) -> BenchError {
        BenchError("\(what): \(String(cString: strerror(code)))")
    }
}
