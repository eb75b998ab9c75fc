// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "restd",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "restd", targets: ["restd"]),
        .executable(name: "restctl", targets: ["restctl"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        // C libraries, found through pkg-config.
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),

        // Swift D-Bus binding over libdbus-1: values, messages, connections, exported objects.
        .target(name: "DBusKit", dependencies: ["CDBus"]),
        // sd-event loop, and the glue that drives a DBusKit connection from it.
        .target(name: "EventLoop", dependencies: ["CSystemd", "CDBus", "DBusKit"]),

        // Names shared by daemon and client: bus name, paths, interfaces, errors.
        .target(name: "RestProtocol"),
        // The timer book: pure state machine with an injected clock, no I/O.
        .target(name: "RestCore"),
        // What desktop notifications say and when they are shown, replaced or closed: pure, no I/O.
        .target(name: "RestNotify", dependencies: ["RestCore"]),

        // The daemon: bus faces, store, event-loop wiring.
        .target(name: "RestDaemon", dependencies: [
            "DBusKit", "EventLoop", "RestCore", "RestNotify", "RestProtocol", "CSystemd",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "TOMLKit", package: "TOMLKit"),
        ]),
        // The client library behind restctl (and the integration tests).
        .target(name: "RestClient", dependencies: ["DBusKit", "RestProtocol", "RestCore"]),

        .executableTarget(name: "restd", dependencies: [
            "RestDaemon", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "restctl", dependencies: [
            "RestClient", "RestCore", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // Child processes, a private dbus-daemon, temporary directories and an sd_notify socket
        // for the benchmark and the integration tests (not a product: nothing ships with it).
        .target(name: "ProcessHarness"),

        // Benchmarks (`make bench`): starts its own dbus-daemon and restd, measures, reports.
        .executableTarget(name: "restd-bench", dependencies: [
            "DBusKit", "CDBus", "CSystemd", "RestProtocol", "ProcessHarness",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        .testTarget(name: "RestCoreTests", dependencies: ["RestCore", "ProcessHarness"]),
        .testTarget(name: "RestNotifyTests", dependencies: ["RestNotify", "RestCore"]),
        .testTarget(name: "DBusKitTests", dependencies: ["DBusKit"]),
        .testTarget(name: "RestDaemonTests", dependencies: ["RestDaemon", "RestCore", "RestNotify", "ProcessHarness"]),
        .testTarget(name: "RestClientTests", dependencies: ["RestClient", "RestProtocol"]),
        .testTarget(name: "IntegrationTests", dependencies: ["RestClient", "RestProtocol", "DBusKit", "ProcessHarness"]),
    ]
)
