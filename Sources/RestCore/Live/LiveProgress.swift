/// Sets done of sets planned, as the live activity has them (`progress_done`, `progress_total`):
/// from a workout, a producer, or a set's count for the day.
public struct LiveProgress: Equatable, Sendable {
    public var done: Int64
    public var total: Int64

    public init(done: Int64, total: Int64) {
        self.done = done
        self.total = total
    }

    /// The progress in `fields`; nil unless both halves are there, as integers.
    public init?(fields: [String: LiveValue]) {
        guard case .integer(let done)? = fields[LiveKey.progressDone],
            case .integer(let total)? = fields[LiveKey.progressTotal]
        else { return nil }
        self.init(done: done, total: total)
    }
}
