import ProcessHarness

/// The integration tests' name for ProcessHarness's private session bus:
///
///     let bus = try TestBus()
///     let result = busctl(bus, "list")
typealias TestBus = PrivateBus

/// A bus the tests can reach by address: a `TestBus`, or the session bus of a real systemd user
/// manager (`UserManager.bus`). The helpers that only talk to a bus (`restctl`, `SignalWatcher`,
/// `NotificationServer`, `MockCalls`) take either.
protocol BusEndpoint {
    var address: String { get }
}

extension PrivateBus: BusEndpoint {}
