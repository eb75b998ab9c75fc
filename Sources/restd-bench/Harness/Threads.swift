import Foundation

/// A value shared between threads, behind one condition lock; every change wakes the waiters.
///
/// `@unchecked Sendable`: `value` is only touched while `condition` is held.
final class Locked<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&value)
    }

    var current: Value { withLock { $0 } }

    /// Waits until `predicate` holds, at most `timeout` seconds; whether it held.
    @discardableResult
    func wait(timeout: Double, until predicate: (Value) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(value) {
            if !condition.wait(until: deadline) { return predicate(value) }
        }
        return true
    }
}

/// A thread running `body` once, that can be joined.
final class BenchThread: Sendable {
    private let finished = Locked(false)

    init(name: String, _ body: @escaping @Sendable () -> Void) {
        let finished = self.finished
        let thread = Thread {
            body()
            finished.withLock { $0 = true }
        }
        thread.name = name
        thread.start()
    }

    /// Waits for `body` to return; false if it did not within `timeout` seconds.
    @discardableResult
    func join(timeout: Double = 120) -> Bool {
        finished.wait(timeout: timeout) { $0 }
    }
}
