import ArgumentParser
import RestClient

/// The call that changes one timer.
typealias TimerChange = (RestdClient) throws(ClientError) -> Void

/// A command that changes one timer, then prints its line (pause, resume, restart, skip, toggle,
/// add, sub): which timer and how to print come from the shared options, the change from the
/// command.
protocol TimerAction: ParsableCommand {
    var timer: TimerSelection { get }
    var output: OutputFormat { get }
    /// The change to timer `id`; what the command line got wrong is thrown before restd is asked.
    func change(_ id: String) throws(RestctlError) -> TimerChange
}

extension TimerAction {
    func run() throws {
        let id = try timer.timerID()
        let change = try change(id)
        try RestdConnection.act(on: id, output: output, change)
    }
}

/// add and sub: time added to a timer or taken off it.
protocol TimeAdjustment: TimerAction {
    /// The DURATION argument.
    var duration: String { get }
    /// `.added` or `.taken`.
    static var role: DurationRole { get }
}

extension TimeAdjustment {
    func validate() throws {
        _ = try durationUSec(duration, as: Self.role)
    }

    func change(_ id: String) throws(RestctlError) -> TimerChange {
        let usec = Int64(try durationUSec(duration, as: Self.role))  // at most 24 h
        let delta = Self.role == .taken ? -usec : usec
        return { client throws(ClientError) in try client.adjust(id: id, deltaUSec: delta) }
    }
}
