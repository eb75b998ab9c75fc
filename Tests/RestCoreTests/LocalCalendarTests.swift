import RestCore
import Testing

/// The local calendar in whatever zone the run has (TZ): `make test-calendar` runs these in UTC+14,
/// UTC-11, Europe/Berlin and America/Santiago (where daylight saving skips midnight itself), from
/// several starting days. Each property is checked every 20 minutes over 400 days, so every
/// daylight-saving change of the zone in that span is crossed.
@Suite struct LocalCalendarTests {
    static let step: USec = 20 * minute
    static let span: USec = 400 * 24 * hour

    static var instants: StrideTo<USec> { stride(from: testEpoch, to: testEpoch + span, by: Int(step)) }

    static func date(_ usec: USec) -> String { LocalCalendar.parts(of: usec)?.dateText ?? "?" }

    @Test func aDayStartsAtItsFirstInstant() {
        for instant in Self.instants {
            let start = LocalCalendar.startOfDay(containing: instant)
            // Within the day, on the same date, and the instant before it is on an earlier date.
            #expect(start <= instant && instant - start < 25 * hour, "\(instant)")
            #expect(Self.date(start) == Self.date(instant), "\(instant)")
            #expect(Self.date(start - second) < Self.date(start), "\(instant)")
        }
    }

    @Test func theDayBeforeStartsWhereItsDateBegins() {
        for instant in Self.instants {
            let today = LocalCalendar.startOfDay(containing: instant)
            let yesterday = LocalCalendar.startOfPreviousDay(before: instant)
            #expect(Self.date(yesterday) == Self.date(today - second), "\(instant)")
            #expect(LocalCalendar.startOfDay(containing: today - second) == yesterday, "\(instant)")
        }
    }

    @Test func aLocalTimeReadsBackToItself() throws {
        for instant in Self.instants {
            let local = try #require(LocalCalendar.parts(of: instant))
            let back = try #require(LocalCalendar.instant(local), "\(local)")
            // In the hour a fall-back change repeats, the same local time names two instants.
            #expect(LocalCalendar.parts(of: back) == local, "\(local)")
        }
    }

    @Test func datesThatDoNotExistAreRefused() {
        #expect(LocalCalendar.instant(.init(year: 2027, month: 2, day: 29)) == nil)
        #expect(LocalCalendar.instant(.init(year: 2026, month: 11, day: 31)) == nil)
        #expect(LocalCalendar.instant(.init(year: 2026, month: 13, day: 1)) == nil)
        #expect(LocalCalendar.instant(.init(year: 2026, month: 11, day: 23, hour: 24)) == nil)
        #expect(LocalCalendar.instant(.init(year: 1969, month: 12, day: 30)) == nil)
        #expect(LocalCalendar.instant(.init(year: 2028, month: 2, day: 29)) != nil)
    }

    @Test func textIsZeroPadded() {
        let local = LocalCalendar.Parts(year: 2026, month: 3, day: 7, hour: 8, minute: 5, second: 9)
        #expect(local.dateText == "2026-03-07" && local.minuteText == "2026-03-07 08:05")
    }
}
