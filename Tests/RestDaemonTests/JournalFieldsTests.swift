import Logging
import Testing

@testable import RestDaemon

/// The pure parts of logging: which fields a journal entry gets, whether stderr is the journal,
/// and the stderr line.
@Suite("Journal fields")
struct JournalFieldsTests {
    private func fields(
        _ level: Logger.Level = .info, _ message: String = "hello",
        _ metadata: Logger.Metadata = [:]
    ) -> [String] {
        JournalFields.make(
            level: level, message: message, metadata: metadata, identifier: "restd",
            file: "RestDaemon/Daemon.swift", function: "run()", line: 42
        ).map(\.description)
    }

    @Test("the fixed fields come first, in order")
    func fixedFields() {
        #expect(
            fields() == [
                "MESSAGE=hello", "PRIORITY=6", "SYSLOG_IDENTIFIER=restd",
                "CODE_FILE=RestDaemon/Daemon.swift", "CODE_LINE=42", "CODE_FUNC=run()",
            ])
    }

    @Test(
        "levels map to syslog priorities",
        arguments: [
            (Logger.Level.trace, 7), (.debug, 7), (.info, 6), (.notice, 5), (.warning, 4), (.error, 3), (.critical, 2),
        ])
    func priorities(level: Logger.Level, priority: Int) {
        #expect(JournalFields.priority(level) == priority)
        #expect(fields(level).contains("PRIORITY=\(priority)"))
    }

    @Test("metadata becomes upper-case fields sorted by name; message_id becomes MESSAGE_ID")
    func metadataFields() {
        let result = fields(
            .info, "timer squat expired",
            [
                "timer_id": "squat",
                LogMessageID.metadataKey: .string(LogMessageID.timerExpired),
                "late_usec": .stringConvertible(UInt64(1200)),
            ])
        #expect(
            Array(result.dropFirst(6)) == [
                "LATE_USEC=1200", "MESSAGE_ID=\(LogMessageID.timerExpired)", "TIMER_ID=squat",
            ])
    }

    @Test("an array gives one field per element, in order; a dictionary one field")
    func arrays() {
        let result = fields(.warning, "moved", ["moved": ["b", "a"], "extra": ["k": "v"]])
        #expect(Array(result.dropFirst(6)) == ["EXTRA=[k: v]", "MOVED=b", "MOVED=a"])
    }

    @Test("metadata cannot replace the fixed fields")
    func fixedWin() {
        let result = fields(.info, "real", ["message": "forged", "priority": "0", "code_line": "1"])
        #expect(result.filter { $0.hasPrefix("MESSAGE=") } == ["MESSAGE=real"])
        #expect(result.count == 6)
    }

    @Test(
        "metadata keys become valid journal field names",
        arguments: [
            ("timer_id", "TIMER_ID"), ("timerID", "TIMER_ID"), ("timerId", "TIMER_ID"), ("moved", "MOVED"),
            ("state-file", "STATE_FILE"), ("_private", "PRIVATE"), ("9lives", "LIVES"), ("über", "BER"),
            ("sha256Sum", "SHA256_SUM"),
        ])
    func fieldNames(key: String, name: String) {
        #expect(JournalFields.fieldName(forMetadataKey: key) == name)
    }

    @Test("keys with nothing usable are dropped; long ones are cut to 64")
    func unusableNames() {
        #expect(JournalFields.fieldName(forMetadataKey: "") == nil)
        #expect(JournalFields.fieldName(forMetadataKey: "___") == nil)
        #expect(JournalFields.fieldName(forMetadataKey: "123") == nil)
        #expect(JournalFields.fieldName(forMetadataKey: String(repeating: "a", count: 100))?.count == 64)
        #expect(fields(.info, "x", ["": "dropped"]).count == 6)
    }

    @Test("snake_case keys take the byte-wise path and get the general rule's names")
    func snakeCaseKeys() {
        for key in [
            "timer_id", "deadline_usec", "late_usec", "message_id", "a", "x9_y", String(repeating: "k", count: 64),
        ] {
            #expect(JournalFields.snakeCaseFieldName(key) != nil, "\(key)")
            #expect(JournalFields.snakeCaseFieldName(key) == JournalFields.generalFieldName(key), "\(key)")
        }
        for key in ["timerID", "_x", "9a", "state-file", "über", "", String(repeating: "k", count: 65)] {
            #expect(JournalFields.snakeCaseFieldName(key) == nil, "\(key)")
        }
    }

    @Test("every produced name follows journald's rule")
    func namesAreValid() {
        for key in ["a b", "ÄÖ", "x.y", "a__b", "HTTPServer", "-", "Z9"] {
            guard let name = JournalFields.fieldName(forMetadataKey: key) else { continue }
            #expect(name.count <= 64)
            #expect(name.first != "_" && !(name.first?.isNumber ?? true), "\(name)")
            #expect(name.allSatisfy { ($0.isASCII && ($0.isUppercase || $0.isNumber)) || $0 == "_" }, "\(name)")
        }
    }

    // MARK: JOURNAL_STREAM

    @Test("JOURNAL_STREAM matches only the same device and inode")
    func journalStream() {
        #expect(JournalStream.matches("2049:123456", device: 2049, inode: 123_456))
        #expect(!JournalStream.matches("2049:123457", device: 2049, inode: 123_456))
        #expect(!JournalStream.matches("2050:123456", device: 2049, inode: 123_456))
        #expect(!JournalStream.matches(nil, device: 2049, inode: 123_456))
        for bad in ["", ":", "2049", "2049:", ":123456", "2049:123456:1", "0x801:123456", " 2049:123456", "-1:5"] {
            #expect(!JournalStream.matches(bad, device: 2049, inode: 123_456), "\(bad)")
        }
        #expect(JournalStream.matches("18446744073709551615:1", device: .max, inode: 1))
    }

    // MARK: stderr

    @Test("a stderr line: time, level, message, metadata sorted, without the message id")
    func stderrLine() {
        let line = StderrLine.format(
            time: "21:10:00.123", level: .warning, message: "moved aside",
            metadata: ["moved": ["a", "b"], "state_file": "/x", LogMessageID.metadataKey: "id"])
        #expect(line == "21:10:00.123 warning: moved aside (moved=[a, b], state_file=/x)")
        #expect(StderrLine.format(time: "t", level: .info, message: "plain", metadata: [:]) == "t info: plain")
    }

    @Test("a newline in a message cannot start a forged line")
    func stderrNewlines() {
        let line = StderrLine.format(time: "t", level: .info, message: "one\ntwo\r\nthree", metadata: ["k": "a\nb"])
        #expect(!line.contains("\n") && !line.contains("\r"))
        #expect(line == "t info: one two three (k=a b)")
        // Unicode's own line breaks too, and text without any is kept as it is.
        let unicode = StderrLine.format(
            time: "t", level: .info, message: "Kniebeuge\u{2028}next\u{0085}set\u{2029}ü\u{0B}\u{0C}x", metadata: [:])
        #expect(unicode == "t info: Kniebeuge next set ü  x")
        #expect(
            StderrLine.format(time: "t", level: .info, message: "Bankdrücken × 5", metadata: [:])
                == "t info: Bankdrücken × 5")
    }

    @Test("the handler keeps its metadata and level as a value")
    func handlerValueSemantics() {
        var first = RestLogHandler(identifier: "restd", destination: .standardError, logLevel: .info)
        first[metadataKey: "a"] = "1"
        var second = first
        second[metadataKey: "a"] = "2"
        second.logLevel = .debug
        #expect(first[metadataKey: "a"] == "1")
        #expect(first.logLevel == .info)
    }
}
