import DBusKit
import Foundation
import ProcessHarness

/// bluetoothd on a private system bus: python-dbusmock's `bluez5` template (adapters, devices),
/// with the GATT objects of a heart-rate strap added through dbusmock's own API (`AddObject`,
/// `AddProperty`, `UpdateProperties`, `EmitSignal`), since the template has none. A notification
/// is what BlueZ sends for one: PropertiesChanged of the characteristic's Value.
///
///     let system = try TestBus(prefix: "restd-system-bus")
///     let bluez = try BluezMock(systemBus: system)
///     let strap = try bluez.addStrap(address: "A0:9E:1A:12:34:56", alias: "Polar H10", connected: true)
///     try bluez.notify(strap, [0x10, 0x48, 0x2C, 0x03])
///
/// `kill()` and `start()` are bluetoothd crashing and coming back (with nothing known: add the
/// adapter and straps again). Killed when the object goes away. `@unchecked Sendable`: the
/// process state lives in `ChildProcess` under its lock; the rest is used from the test's thread.
final class BluezMock: @unchecked Sendable {
    static let busName = "org.bluez"
    static let mockInterface = "org.freedesktop.DBus.Mock"
    static let bluezMockInterface = "org.bluez.Mock"
    static let heartRateService = "0000180d-0000-1000-8000-00805f9b34fb"
    static let heartRateMeasurement = "00002a37-0000-1000-8000-00805f9b34fb"

    /// The object paths of one strap.
    struct Strap {
        let address: String
        let device: String
        let service: String
        let measurement: String
    }

    let systemBus: TestBus
    let workDirectory: TempDirectory
    private(set) var child: ChildProcess?
    private(set) var uniqueName = ""
    private let control: Connection

    /// Starts the mock and waits until it owns org.bluez.
    init(systemBus: TestBus) throws {
        self.systemBus = systemBus
        workDirectory = try TempDirectory(prefix: "restd-bluez")
        control = try Connection.open(address: systemBus.address)
        try start()
    }

    deinit { child?.killAndReap() }

    /// Starts bluetoothd (the mock), empty: no adapter, no device.
    func start() throws {
        let logPath = workDirectory.path("bluez-\(Int.random(in: 0..<1_000_000)).log")
        let log = try openLogFile(logPath)
        defer { close(log) }
        // Watching before the mock starts, so that the name changing hands cannot pass unseen.
        let names = try SignalWatcher.nameOwner(Self.busName, bus: systemBus)
        let child = try ChildProcess(
            executable: NotificationServer.python, arguments: ["-m", "dbusmock", "--system", "--template", "bluez5"],
            environment: ChildEnvironment.make(["DBUS_SYSTEM_BUS_ADDRESS": systemBus.address, "PYTHONUNBUFFERED": "1"]),
            stdout: log, stderr: log)
        self.child = child
        do {
            uniqueName = try names.waitForOwner(child, "the BlueZ mock") {
                "--- its log:\n" + ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "")
            }
        } catch {
            child.killAndReap()
            throw error
        }
    }

    /// SIGKILL: bluetoothd crashed; org.bluez leaves the bus without InterfacesRemoved.
    func kill() { child?.killAndReap() }

    // MARK: Building the object tree

    /// Adds adapter `hci0` (powered, as the template makes it).
    @discardableResult
    func addAdapter(_ name: String = "hci0") throws -> String {
        try callMock(
            path: "/", interface: Self.bluezMockInterface, "AddAdapter", [.string(name), .string("restd-test")]
        )
        .first?.string ?? ""
    }

    /// A paired heart-rate strap with its Heart Rate Service and measurement characteristic
    /// (StartNotify and StopNotify answer at once, or run `startNotifyCode`), its Battery1 when
    /// `battery` is given, connected or not. Announced with InterfacesAdded, as BlueZ does.
    @discardableResult
    func addStrap(
        address: String, alias: String, battery: UInt8? = nil, connected: Bool,
        adapter: String = "hci0", startNotifyCode: String = ""
    ) throws -> Strap {
        let device =
            try callMock(
                path: "/", interface: Self.bluezMockInterface, "AddDevice",
                [.string(adapter), .string(address), .string(alias)]
            ).first?.string ?? ""
        try callMock(
            path: "/", interface: Self.bluezMockInterface, "PairDevice",
            [.string(adapter), .string(address), .int32(0x240404)])
        var deviceProperties: [String: DBusValue] = [
            "Connected": .boolean(connected), "ServicesResolved": .boolean(connected),
            "UUIDs": .strings([Self.heartRateService, "0000180f-0000-1000-8000-00805f9b34fb"]),
        ]
        try callMock(
            path: device, interface: Self.mockInterface, "UpdateProperties",
            [.string("org.bluez.Device1"), .vardict(deviceProperties)])
        deviceProperties = [:]
        if let battery {
            try callMock(
                path: device, interface: Self.mockInterface, "AddProperty",
                [.string("org.bluez.Battery1"), .string("Percentage"), .variant(.byte(battery))])
            try interfacesAdded(device, ["org.bluez.Battery1": ["Percentage": .byte(battery)]])
        }
        let strap = Strap(
            address: address, device: device, service: device + "/service000c",
            measurement: device + "/service000c/char000d")
        let serviceProperties: [String: DBusValue] = [
            "UUID": .string(Self.heartRateService), "Device": .objectPath(device), "Primary": .boolean(true),
        ]
        try callMock(
            path: "/", interface: Self.mockInterface, "AddObject",
            [
                .string(strap.service), .string("org.bluez.GattService1"), .vardict(serviceProperties),
                .array(.structure([.string, .string, .string, .string]), []),
            ])
        try interfacesAdded(strap.service, ["org.bluez.GattService1": serviceProperties])
        let measurementProperties: [String: DBusValue] = [
            "UUID": .string(Self.heartRateMeasurement), "Service": .objectPath(strap.service),
            "Value": .array(.byte, []), "Notifying": .boolean(false), "Flags": .strings(["notify"]),
        ]
        let methods: [DBusValue] = [
            .structure([.string("StartNotify"), .string(""), .string(""), .string(startNotifyCode)]),
            .structure([.string("StopNotify"), .string(""), .string(""), .string("")]),
        ]
        try callMock(
            path: "/", interface: Self.mockInterface, "AddObject",
            [
                .string(strap.measurement), .string("org.bluez.GattCharacteristic1"), .vardict(measurementProperties),
                .array(.structure([.string, .string, .string, .string]), methods),
            ])
        try interfacesAdded(strap.measurement, ["org.bluez.GattCharacteristic1": measurementProperties])
        return strap
    }

    /// The strap connects or disconnects (its GATT objects stay, as BlueZ keeps them for a
    /// paired device).
    func setConnected(_ strap: Strap, _ connected: Bool) throws {
        try callMock(
            path: strap.device, interface: Self.mockInterface, "UpdateProperties",
            [
                .string("org.bluez.Device1"),
                .vardict(["Connected": .boolean(connected), "ServicesResolved": .boolean(connected)]),
            ])
    }

    func setBattery(_ strap: Strap, _ percent: UInt8) throws {
        try callMock(
            path: strap.device, interface: Self.mockInterface, "UpdateProperties",
            [.string("org.bluez.Battery1"), .vardict(["Percentage": .byte(percent)])])
    }

    /// One notification of the Heart Rate Measurement: PropertiesChanged of Value.
    func notify(_ strap: Strap, _ bytes: [UInt8]) throws {
        try callMock(
            path: strap.measurement, interface: Self.mockInterface, "UpdateProperties",
            [.string("org.bluez.GattCharacteristic1"), .vardict(["Value": .array(.byte, bytes.map { .byte($0) })])])
    }

    private func interfacesAdded(_ path: String, _ interfaces: [String: [String: DBusValue]]) throws {
        let dictionary = DBusValue.dictionary(
            key: .string, value: .dictionary(key: .string, value: .variant),
            interfaces.sorted { $0.key < $1.key }.map { .init(.string($0.key), .vardict($0.value)) })
        try callMock(
            path: "/", interface: Self.mockInterface, "EmitSignal",
            [
                .string("org.freedesktop.DBus.ObjectManager"), .string("InterfacesAdded"), .string("oa{sa{sv}}"),
                .array(.variant, [.variant(.objectPath(path)), .variant(dictionary)]),
            ])
    }

    // MARK: Calls

    @discardableResult
    private func callMock(
        path: String, interface: String, _ member: String, _ arguments: [DBusValue]
    ) throws -> [DBusValue] {
        let message = try Message.methodCall(destination: uniqueName, path: path, interface: interface, member: member)
        try message.append(arguments)
        return try control.callBlocking(message, timeoutMilliseconds: 30_000).arguments()
    }
}
