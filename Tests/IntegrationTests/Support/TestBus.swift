import ProcessHarness

/// The integration tests' name for ProcessHarness's private session bus:
///
///     let bus = try TestBus()
///     let result = busctl(bus, "list")
typealias TestBus = PrivateBus
