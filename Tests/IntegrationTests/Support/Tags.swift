import Testing

// What kind of test this is, declared beside it; the runs select by these tags
// (scripts/tagged-tests.sh lists the tests that carry one, as swift-testing itself lists them).
extension Tag {
    /// It waits for real time to pass on purpose, because what it proves is the kernel's part
    /// (timers firing on time, a process left asleep, a throttle's interval, a strap's
    /// notifications a second apart through the real daemon); each says why. The logic behind it
    /// is proven on the core's hand-moved clock (TestClock). `make check` leaves it to `make test`.
    @Tag static var realTime: Self
    /// It takes long: a long random run, or it brings up systemd, the journal, Chromium or
    /// `make run`'s wrapper. `make check` leaves it to `make test`.
    @Tag static var slow: Self
    /// It exercises the bus itself (activation, ObjectManager, signals and their order, name
    /// ownership, match rules, hostile input): `make test-broker` runs it again on dbus-broker.
    @Tag static var everyBus: Self
    /// It stores, shows or counts times: `make test-calendar` runs it again in UTC+14 and UTC-11,
    /// in German.
    @Tag static var calendar: Self
}
