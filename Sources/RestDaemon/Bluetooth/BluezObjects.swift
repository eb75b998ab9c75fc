import DBusKit

/// restd's copy of the part of BlueZ's object tree that matters for heart-rate straps: adapters,
/// devices, GATT services and characteristics, batteries, with their properties. Fed with
/// GetManagedObjects, InterfacesAdded/Removed and PropertiesChanged; answers which devices are
/// heart-rate straps and where their Heart Rate Measurement characteristic is. No I/O.
struct BluezObjects {
    /// Properties by object path, then by interface.
    private(set) var objects: [String: [String: [String: DBusValue]]] = [:]

    /// A device that has, or announces, the Heart Rate Service.
    struct Strap: Equatable {
        var path: String
        var address: String
        var alias: String
        var paired: Bool
        var connected: Bool
        var batteryPercent: Int?
        /// The Heart Rate Measurement characteristic, once BlueZ has resolved the services.
        var measurementPath: String?

        /// Connected with its measurement characteristic in reach: it can be read.
        var isReady: Bool { connected && measurementPath != nil }
    }

    mutating func removeAll() { objects = [:] }

    /// The body of GetManagedObjects (`a{oa{sa{sv}}}`): replaces everything known.
    mutating func load(managedObjects value: DBusValue) {
        objects = [:]
        for entry in value.dictEntries ?? [] {
            guard let path = entry.key.string else { continue }
            add(path: path, interfaces: entry.value)
        }
    }

    /// InterfacesAdded (`oa{sa{sv}}`), or one object of GetManagedObjects.
    mutating func add(path: String, interfaces: DBusValue) {
        for entry in interfaces.dictEntries ?? [] {
            guard let name = entry.key.string, Bluez.followedInterfaces.contains(name),
                let properties = entry.value.vardictEntries
            else { continue }
            objects[path, default: [:]][name] = properties
        }
    }

    /// InterfacesRemoved (`oas`).
    mutating func remove(path: String, interfaces: [String]) {
        guard var object = objects[path] else { return }
        for name in interfaces { object[name] = nil }
        objects[path] = object.isEmpty ? nil : object
    }

    /// PropertiesChanged (`sa{sv}as`) of an object already known; others are ignored, since their
    /// other properties are unknown (InterfacesAdded brings them whole).
    mutating func change(path: String, interface: String, changed: [String: DBusValue], invalidated: [String]) {
        guard Bluez.followedInterfaces.contains(interface), var properties = objects[path]?[interface] else { return }
        properties.merge(changed) { _, new in new }
        for name in invalidated { properties[name] = nil }
        objects[path]![interface] = properties
    }

    /// Whether any adapter is known, and whether any is powered.
    var adapters: (count: Int, powered: Int) {
        let adapters = objects.values.compactMap { $0[Bluez.adapterInterface] }
        return (adapters.count, adapters.filter { $0["Powered"]?.bool == true }.count)
    }

    /// Every heart-rate strap BlueZ knows, by object path.
    var straps: [Strap] {
        // Heart Rate services by device, then their measurement characteristics by service.
        var serviceDevice: [String: String] = [:]
        for (path, interfaces) in objects {
            guard let service = interfaces[Bluez.serviceInterface], uuid(service["UUID"]) == Bluez.heartRateService,
                let device = service["Device"]?.string
            else { continue }
            serviceDevice[path] = device
        }
        var measurement: [String: String] = [:]
        for (path, interfaces) in objects.sorted(by: { $0.key < $1.key }) {
            guard let characteristic = interfaces[Bluez.characteristicInterface],
                uuid(characteristic["UUID"]) == Bluez.heartRateMeasurement,
                let service = characteristic["Service"]?.string, let device = serviceDevice[service],
                measurement[device] == nil
            else { continue }
            measurement[device] = path
        }
        let withService = Set(serviceDevice.values)
        var straps: [Strap] = []
        for (path, interfaces) in objects {
            guard let device = interfaces[Bluez.deviceInterface] else { continue }
            let uuids = device["UUIDs"]?.arrayElements?.compactMap { uuid($0) } ?? []
            guard withService.contains(path) || uuids.contains(Bluez.heartRateService) else { continue }
            let address = device["Address"]?.string ?? ""
            let battery = interfaces[Bluez.batteryInterface]?["Percentage"]?.int64
            straps.append(
                Strap(
                    path: path, address: address.uppercased(),
                    alias: device["Alias"]?.string ?? device["Name"]?.string ?? address,
                    paired: device["Paired"]?.bool ?? false, connected: device["Connected"]?.bool ?? false,
                    batteryPercent: battery.map { Int(min(max($0, 0), 100)) }, measurementPath: measurement[path]))
        }
        return straps.sorted { $0.path < $1.path }
    }

    /// The device a characteristic belongs to, through its service.
    func device(ofCharacteristic path: String) -> String? {
        guard let service = objects[path]?[Bluez.characteristicInterface]?["Service"]?.string else { return nil }
        return objects[service]?[Bluez.serviceInterface]?["Device"]?.string
    }

    private func uuid(_ value: DBusValue?) -> String? {
        value?.string?.lowercased()
    }
}
