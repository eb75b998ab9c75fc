import RestCore
import Testing

@Suite("DateText")
struct DateTextTests {
    @Test(
        "instants are ISO 8601 UTC with milliseconds, truncated",
        arguments: [
            (1_795_295_400_000_000, "2026-11-21T21:10:00.000Z"),
            (1_795_295_400_123_999, "2026-11-21T21:10:00.123Z"),
            (1, "1970-01-01T00:00:00.000Z"),
            (1_000, "1970-01-01T00:00:00.001Z"),
            (951_868_799_999_999, "2000-02-29T23:59:59.999Z"),
            (253_402_300_799_000_000, "9999-12-31T23:59:59.000Z"),
        ] as [(UInt64, String)])
    func iso8601(usec: UInt64, text: String) {
        #expect(DateText.iso8601(usec: usec) == text)
    }

    @Test(
        "file names take UTC to the second, without separators",
        arguments: [
            (0, "19700101T000000Z"),
            (1_795_295_400_999_999, "20261121T211000Z"),
            (951_782_400_999_999, "20000229T000000Z"),
        ] as [(UInt64, String)])
    func basic(usec: UInt64, text: String) {
        #expect(DateText.basicISO8601(usec: usec) == text)
    }

    @Test("the local time of day with milliseconds, in the process's zone")
    func localTimeOfDay() throws {
        let usec: USec = 1_795_295_400_123_999
        let local = try #require(LocalCalendar.parts(of: usec))
        let expected = [local.hour, local.minute, local.second].map { $0 < 10 ? "0\($0)" : "\($0)" }
            .joined(separator: ":")
        #expect(DateText.localTimeOfDay(usec: usec) == expected + ".123")
    }
}
