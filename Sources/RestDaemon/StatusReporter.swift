import EventLoop
import Localization

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
        // TRANSLATORS: systemd's status line of restd when no part has anything to say.
        return phrases.isEmpty ? localized("running") : phrases.joined(separator: ", ")
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

    /// "no timers running", "1 timer running", "2 timers running, 1 paused": the line's parts,
    /// each a text of its own, listed as the line lists its parts.
    static func timersPhrase(running: Int, paused: Int) -> String {
        let phrase =
            running == 0
            ? localized("no timers running")
            : localizedPlural("%1$d timer running", "%1$d timers running", count: running, running)
        guard paused > 0 else { return phrase }
        return phrase + ", " + localizedPlural("%1$d paused", "%1$d paused", count: paused, paused)
    }

    /// "1 live subscriber", "3 live subscribers"; nil when there are none.
    static func subscribersPhrase(_ count: Int) -> String? {
        count == 0 ? nil : localizedPlural("%1$d live subscriber", "%1$d live subscribers", count: count, count)
    }
}
