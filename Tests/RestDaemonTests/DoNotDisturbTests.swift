import DBusKit
import EventLoop
import Foundation
import Glibc
import ProcessHarness
import Testing

@testable import RestDaemon

/// Do Not Disturb as a settings portal (python-dbusmock standing in for xdg-desktop-portal)
/// tells it on a private bus, and unknown where no portal answers.
@Suite("Do Not Disturb from the settings portal", .serialized)
struct DoNotDisturbTests {
    static func ask(_ bus: PrivateBus) throws -> Bool? {
        let loop = try EventLoop()
        let connection = try Connection.open(address: bus.address)
        let driver = try BusDriver(connection: connection, loop: loop)
        let dnd = DoNotDisturb(connection: connection, logger: LogLines().logger)
        var answered = false
        dnd.refresh()
        // The answer, or the 1 s timeout, comes through the loop.
        let deadline = Deadline(secondsFromNow: 5)
        while !deadline.hasPassed, !answered {
            _ = try loop.runOnce(timeoutUSec: 50_000)
            answered = !dnd.isAsking
        }
        withExtendedLifetime(driver) {}
        return dnd.isOn
    }

    /// A mocked portal whose Read answers `showBanners` wrapped in two variants, as the portal does.
    static func portal(on bus: PrivateBus, showBanners: Bool) throws -> ChildProcess {
        let env = ChildEnvironment.make(["DBUS_SESSION_BUS_ADDRESS": bus.address])
        let mock = try ChildProcess(
            executable: "/usr/bin/python3",
            arguments: ["-m", "dbusmock", DoNotDisturb.portal, DoNotDisturb.path, DoNotDisturb.interface],
            environment: env)
        let deadline = Deadline(secondsFromNow: 20)
        while true {
            let gdbus = try ChildProcess(
                executable: "/usr/bin/gdbus",
                arguments: [
                    "call", "--address", bus.address, "--dest", DoNotDisturb.portal, "--object-path", DoNotDisturb.path,
                    "--method", "org.freedesktop.DBus.Mock.AddMethod", DoNotDisturb.interface, "Read", "ss", "v",
                    "ret = dbus.Boolean(\(showBanners ? "True" : "False"), variant_level=2)",
                ], environment: env)
            if gdbus.wait(timeout: 10) == .exited(0) { return mock }
            if deadline.hasPassed { throw ProcessHarnessError("the mocked portal did not come up") }
            usleep(100_000)
        }
    }

    @Test("show-banners false is Do Not Disturb on; true is off", arguments: [false, true])
    func portalAnswers(showBanners: Bool) throws {
        let bus = try PrivateBus()
        let mock = try Self.portal(on: bus, showBanners: showBanners)
        #expect(try Self.ask(bus) == !showBanners)
        _ = mock.stop()
    }

    @Test("no portal: not known")
    func noPortal() throws {
        let bus = try PrivateBus()
        #expect(try Self.ask(bus) == nil)
    }
}
