import Testing

@testable import RestDaemon

@Suite("Status line")
struct StatusReporterTests {
    @Test(
        "the timers phrase",
        arguments: [
            (0, 0, "no timers running"), (1, 0, "1 timer running"), (2, 0, "2 timers running"),
            (2, 1, "2 timers running, 1 paused"), (0, 3, "no timers running, 3 paused"),
        ])
    func phrase(running: Int, paused: Int, expected: String) {
        #expect(StatusReporter.timersPhrase(running: running, paused: paused) == expected)
    }

    @Test("parts are joined in order; STATUS= is sent only when the line changed")
    func sendsOnChange() {
        var sent: [String] = []
        let reporter = StatusReporter { sent.append($0) }
        var timers = 2
        var subscribers: Int? = nil
        reporter.addPart { StatusReporter.timersPhrase(running: timers, paused: 0) }
        reporter.addPart { subscribers.map { "\($0) subscriber\($0 == 1 ? "" : "s")" } }
        reporter.announceReady()
        reporter.refresh()
        #expect(sent == ["READY=1\nSTATUS=2 timers running"])
        subscribers = 1
        reporter.refresh()
        timers = 2
        reporter.refresh()
        timers = 1
        reporter.refresh()
        #expect(
            sent == [
                "READY=1\nSTATUS=2 timers running", "STATUS=2 timers running, 1 subscriber",
                "STATUS=1 timer running, 1 subscriber",
            ])
    }

    @Test("nothing is sent before READY=1")
    func quietBeforeReady() {
        var sent: [String] = []
        let reporter = StatusReporter { sent.append($0) }
        var timers = 0
        reporter.addPart { StatusReporter.timersPhrase(running: timers, paused: 0) }
        reporter.refresh()
        timers = 1
        reporter.refresh()
        #expect(sent.isEmpty)
        reporter.announceReady()
        #expect(sent == ["READY=1\nSTATUS=1 timer running"])
    }

    @Test("with no parts the line says running")
    func noParts() {
        #expect(StatusReporter { _ in }.line == "running")
    }
}
