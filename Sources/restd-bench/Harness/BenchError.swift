/// A failure of the bench itself (a call that failed, a process that did not say READY=1;
/// the harness's own, a program that would not start, are ProcessHarnessError); the
/// scenario it happens in is reported as failed, the others still run.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
