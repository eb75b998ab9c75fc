import EventLoop

/// Keeps systemd's `STATUS=` line current: "2 timers running, 1 paused".
///
/// The line is made of parts, each a closure returning a phrase or nil; other features add their
/// own (`addPart { "\(subscribers) subscribers" }`) and call `refresh()` when their part may have
/// changed. The daemon refreshes once the loop is idle after a batch of timer events. Nothing is sent
/// before `announceReady()`, which sends READY=1 with the first line; after that a line is sent
/// only when it differs from the last one sent.
final class StatusReporter {
    typealias Part = () -> String?

    private var parts: [Part] = []
    private var lastSent: String?
    private var isReady = false
    private let send: (String) -> Void

    /// `send` gets the whole notification text (`STATUS=…`); the default goes to sd_notify.
    init(send: @escaping (String) -> Void = ServiceManager.notify) {
        self.send = send
    }

    /// Adds a phrase to the end of the line.
    func addPart(_ part: @escaping Part) {
        parts.append(part)
    }

    /// The current line.
    var line: String {
        let phrases = parts.compactMap { $0() }
        return phrases.isEmpty ? "running" : phrases.joined(separator: ", ")
    }

    /// Sends `STATUS=` if the line changed since the last one sent (nothing before READY=1).
    func refresh() {
        guard isReady else { return }
        let line = self.line
        guard line != lastSent else { return }
        lastSent = line
        send("STATUS=" + line)
    }

    /// Sends READY=1 with the current line: the daemon has loaded its state and owns its name.
    /// Again after a reload (which sent RELOADING=1), with the line as it is then.
    func announceReady() {
        isReady = true
        let line = self.line
        lastSent = line
        send("READY=1\nSTATUS=" + line)
    }

    /// "no timers running", "1 timer running", "2 timers running, 1 paused".
    static func timersPhrase(running: Int, paused: Int) -> String {
        var phrase: String
        switch running {
        case 0: phrase = "no timers running"
        case 1: phrase = "1 timer running"
        default: phrase = "\(running) timers running"
        }
        if paused > 0 { phrase += ", \(paused) paused" }
        return phrase
    }

    /// "1 live subscriber", "3 live subscribers"; nil when there are none.
    static func subscribersPhrase(_ count: Int) -> String? {
        switch count {
        case 0: nil
        case 1: "1 live subscriber"
        default: "\(count) live subscribers"
        }
    }
}
