import Clocks
import EventLoop
import Glibc
import Logging
import RestCore

/// restd's log handler: structured entries to the journal when stderr is the journal, plain
/// lines on stderr otherwise; never both. A value, as swift-log asks of handlers.
public struct RestLogHandler: LogHandler {
    /// Where entries go; decided once, at start-up.
    public enum Destination: Sendable {
        /// `sd_journal_sendv`, with upper-case fields from the metadata.
        case journal
        /// One human-readable line per entry on fd 2.
        case standardError
    }

    public let identifier: String
    public let destination: Destination
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?

    public init(identifier: String, destination: Destination, logLevel: Logger.Level = .info) {
        self.identifier = identifier
        self.destination = destination
        self.logLevel = logLevel
    }

    /// The journal when systemd connected stderr to it (`JOURNAL_STREAM`), else stderr.
    public static func detectDestination() -> Destination {
        JournalStream.standardErrorIsJournal() ? .journal : .standardError
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let own = event.metadata { merged.merge(own) { _, new in new } }
        let message = event.message.description

        if destination == .journal {
            let fields = JournalFields.make(
                level: event.level, message: message, metadata: merged,
                identifier: identifier, file: event.file,
                function: event.function, line: event.line)
            // A journal that refuses the entry must not swallow it: say it on stderr instead.
            if Self.sendToJournal(fields) >= 0 { return }
        }
        let line = StderrLine.format(
            time: DateText.localTimeOfDay(usec: KernelClock.realtimeUSec), level: event.level,
            message: message, metadata: merged)
        Self.writeToStandardError(line + "\n")
    }

    /// One journal entry; its result (negative errno on failure).
    static func sendToJournal(_ fields: [JournalField]) -> Int32 {
        Journal.send(fields.map { ($0.name, $0.value) })
    }

    /// Writes all of `text` to fd 2 with write(2): unbuffered, one call for a short line, so
    /// lines of concurrent writers do not interleave (and the global `stderr` is off limits in
    /// Swift 6). Also what restd's command line uses for its one-line errors.
    public static func writeToStandardError(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                offset += written
            }
        }
    }
}

/// The human-readable form of an entry on stderr: `21:10:00.123 warning: message (key=value)`.
public enum StderrLine {
    public static func format(time: String, level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        var line = "\(time) \(level): \(message)"
        // The message id is for the journal; on a terminal it is noise.
        let shown = metadata.filter { $0.key != LogMessageID.metadataKey }.sorted { $0.key < $1.key }
        if !shown.isEmpty {
            line += " (" + shown.map { "\($0.key)=\(JournalFields.text($0.value))" }.joined(separator: ", ") + ")"
        }
        // One entry, one line: a newline inside a message would forge the start of another.
        // Only bytes 0x0A–0x0D and non-ASCII ones can be part of a newline; most lines have none.
        guard line.utf8.contains(where: { (0x0A...0x0D).contains($0) || $0 >= 0x80 }) else { return line }
        return String(line.map { $0.isNewline ? " " : $0 })
    }
}

/// The process-wide logging set-up of restd.
public enum RestLogging {
    /// Routes every `Logger` to a `RestLogHandler` at `level`, to the journal or to stderr as
    /// `destination` says (detected from `JOURNAL_STREAM` when nil). Call once, first thing.
    public static func bootstrap(level: Logger.Level, destination: RestLogHandler.Destination? = nil) {
        let destination = destination ?? RestLogHandler.detectDestination()
        LoggingSystem.bootstrap { label in
            RestLogHandler(identifier: label, destination: destination, logLevel: level)
        }
    }
}
