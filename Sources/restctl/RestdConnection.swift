import Clocks
import RestClient

/// restctl's way to restd: one connection per run, client errors turned into `RestctlError`.
enum RestdConnection {
    /// Connects to restd on the session bus and runs `body` with the client.
    static func withClient<T>(_ body: (RestdClient) throws(ClientError) -> T) throws(RestctlError) -> T {
        do {
            let client = try RestdClient()
            return try body(client)
        } catch {
            throw RestctlError(error)
        }
    }

    /// A client, for a command that asks restd something before it can check its own input
    /// (`restctl set` reads the weight unit first); `calling` runs its calls.
    static func client() throws(RestctlError) -> RestdClient {
        do {
            return try RestdClient()
        } catch {
            throw RestctlError(error)
        }
    }

    static func calling<T>(_ body: () throws(ClientError) -> T) throws(RestctlError) -> T {
        do {
            return try body()
        } catch {
            throw RestctlError(error)
        }
    }

    /// Runs `action` on timer `id`, then prints the timer: its status line, or its JSON object.
    static func act(
        on id: String, output: OutputFormat, _ action: (RestdClient) throws(ClientError) -> Void
    ) throws(RestctlError) {
        let snapshot = try withClient { client throws(ClientError) in
            try action(client)
            return try client.timer(id: id)
        }
        print(output.text(snapshot, now: KernelClock.realtimeUSec))
    }
}

extension OutputFormat {
    /// What the commands that show a timer print for it.
    func text(_ snapshot: TimerSnapshot, now: UInt64) -> String {
        Self.text(snapshot, now: now, json: json)
    }

    static func text(_ snapshot: TimerSnapshot, now: UInt64, json: Bool) -> String {
        json ? TimerJSON.object(snapshot, now: now) : TimerLine.format(snapshot, now: now)
    }
}
