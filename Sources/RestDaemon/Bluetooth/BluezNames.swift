import DBusKit

/// The names of BlueZ's D-Bus API (doc/org.bluez.*.rst in BlueZ) that the strap reader uses,
/// and the Bluetooth SIG numbers of the Heart Rate Service.
enum Bluez {
    static let busName = "org.bluez"
    static let adapterInterface = "org.bluez.Adapter1"
    static let deviceInterface = "org.bluez.Device1"
    static let serviceInterface = "org.bluez.GattService1"
    static let characteristicInterface = "org.bluez.GattCharacteristic1"
    static let batteryInterface = "org.bluez.Battery1"

    static let objectManagerInterface = MessageBus.objectManagerInterface
    static let propertiesInterface = MessageBus.propertiesInterface

    /// Heart Rate Service (0x180D) and its Heart Rate Measurement characteristic (0x2A37), as the
    /// 128-bit UUIDs BlueZ shows (lower case).
    static let heartRateService = "0000180d-0000-1000-8000-00805f9b34fb"
    static let heartRateMeasurement = "00002a37-0000-1000-8000-00805f9b34fb"

    /// The interfaces whose objects the reader keeps a copy of; everything else BlueZ exports
    /// (media, network, advertising) is ignored.
    static let followedInterfaces: Set<String> = [
        adapterInterface, deviceInterface, serviceInterface, characteristicInterface, batteryInterface,
    ]
}
