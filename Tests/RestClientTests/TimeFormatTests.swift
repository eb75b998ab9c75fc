import RestClient
import Testing

@Suite("TimeFormat")
struct TimeFormatTests {
    @Test(
        "m:ss below an hour, h:mm:ss from an hour on",
        arguments: [
            (0, "0:00"), (5, "0:05"), (59, "0:59"), (60, "1:00"), (90, "1:30"), (599, "9:59"), (600, "10:00"),
            (3_599, "59:59"), (3_600, "1:00:00"), (3_723, "1:02:03"), (86_400, "24:00:00"), (360_000, "100:00:00"),
        ] as [(UInt64, String)])
    func clock(seconds: UInt64, text: String) {
        #expect(TimeFormat.clock(seconds: seconds) == text)
    }

    @Test(
        "time left rounds up to whole seconds",
        arguments: [
            (0, "0:00"), (1, "0:01"), (999_999, "0:01"), (1_000_000, "0:01"), (1_000_001, "0:02"),
            (83_000_000, "1:23"), (89_900_000, "1:30"), (90_000_000, "1:30"), (3_599_000_001, "1:00:00"),
            (UInt64.max, "5124095576:01:50"),
        ] as [(UInt64, String)])
    func countdown(usec: UInt64, text: String) {
        #expect(TimeFormat.countdown(usec: usec) == text)
    }

    @Test(
        "time gone by rounds down to whole seconds",
        arguments: [
            (0, "0:00"), (999_999, "0:00"), (1_000_000, "0:01"), (12_500_000, "0:12"), (3_600_000_000, "1:00:00"),
        ] as [(UInt64, String)])
    func elapsed(usec: UInt64, text: String) {
        #expect(TimeFormat.elapsed(usec: usec) == text)
    }
}
