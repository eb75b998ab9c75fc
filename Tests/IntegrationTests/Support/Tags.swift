import Testing

extension Tag {
    /// A test that waits for real time to pass on purpose, because what it proves is the kernel's
    /// part (timers firing, a process left asleep, a strap's notifications a second apart through
    /// the real daemon). Each says why on its line; the logic behind it is proven on the core's
    /// hand-moved clock (TestClock). `make check` leaves them to `make test`.
    @Tag static var realTime: Self
}
