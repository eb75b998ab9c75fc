// swift-tools-version:6.0
import PackageDescription

/// How restd and restctl are linked (on Linux), for fewer pages touched at each start: with lld,
/// relative relocations packed (DT_RELR, read by glibc 2.36 and later) rather than 24 bytes each,
/// and the programs' own symbols not exported (no library looks them up; a crash's stack trace then
/// names restd's functions only with the .deb's debug symbols, as for a C program). Given an order
/// file (scripts/generate-orderfile.sh), the functions it lists come first, in its order, as far as
/// their sections allow: the static standard library's core is one 1.6 MB section.
func shippedProgram(order: String? = nil) -> [LinkerSetting] {
    var flags = [
        "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic",
    ]
    if let order {
        // A function renamed since the file was written is placed among the rest, without a warning.
        flags += [
            "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/\(order)",
            "-Xlinker", "--no-warn-symbol-ordering",
        ]
    }
    return [.unsafeFlags(flags, .when(platforms: [.linux]))]
}

let package = Package(
    name: "restd",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "restd", targets: ["restd"]),
        .executable(name: "restctl", targets: ["restctl"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // C libraries, found through pkg-config.
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // Headers only (libpulse-dev, libsndfile1-dev): SoundKit loads the libraries when a sound
        // is due (SoundLibraries), so they are not linked, and pkg-config would link them.
        .systemLibrary(name: "CPulse"),
        .systemLibrary(name: "CSndfile"),

        // Swift D-Bus binding over libdbus-1: values, messages, connections, exported objects.
        .target(name: "DBusKit", dependencies: ["CDBus"]),
        // sd-event loop, and the glue that drives a DBusKit connection from it.
        .target(name: "EventLoop", dependencies: ["CSystemd", "CDBus", "DBusKit"]),

        // Names shared by daemon and client: bus name, paths, interfaces, errors.
        .target(name: "RestProtocol", dependencies: ["Localization"]),
        // The rules: timers, training, recovery, texts, planned on an injected clock without I/O;
        // only LocalCalendar reads the system's time zone (localtime_r, mktime). Texts a person
        // reads (a weight, a record) take the catalog they are said in as a parameter.
        .target(name: "RestCore", dependencies: ["Localization"]),
        // The kernel's clocks, read once: the lowest I/O layer, under every program that tells the
        // time (restd, restctl, the bench, the harness), as the core's injected clock.
        .target(name: "Clocks", dependencies: ["RestCore"]),
        // The texts a person reads, in their language: po/'s catalogs, compiled by msgfmt, read by restd itself.
        .target(name: "Localization"),
        // What desktop notifications say and when they are shown, replaced or closed: pure, no I/O
        // but the catalog's texts (Localization), read when restd starts.
        .target(name: "RestNotify", dependencies: ["RestCore", "Localization"]),

        // posix_spawn, wrapped once: restd's sound command and the harness's child processes.
        .target(name: "POSIXSpawn"),
        // TOML 1.0 documents into values that know their line: config.toml, workout plans.
        .target(name: "TOML", dependencies: ["Localization"]),
        // SQLite's C API, wrapped once: connections, statements, transactions, errors.
        .target(name: "SQLiteKit", dependencies: ["CSQLite"]),
        // Event sounds through the session's sound server (libpulse, driven from the sd-event loop;
        // files decoded by libsndfile), and the freedesktop sound theme's lookup.
        .target(name: "SoundKit", dependencies: ["CPulse", "CSndfile", "EventLoop"]),

        // The daemon: bus faces, store, event-loop wiring. Nothing here may start a thread or a
        // timer of its own (no Foundation, no libdispatch): restd must sleep between rests.
        .target(
            name: "RestDaemon",
            dependencies: [
                "DBusKit", "EventLoop", "RestCore", "Clocks", "RestNotify", "RestProtocol", "SQLiteKit", "TOML",
                "POSIXSpawn", "SoundKit", "Localization", .product(name: "Logging", package: "swift-log"),
            ]),
        // The client library behind restctl (and the integration tests).
        .target(name: "RestClient", dependencies: ["DBusKit", "RestProtocol", "RestCore", "Clocks", "Localization"]),

        // restd's few options are read by hand: swift-argument-parser would link FoundationEssentials.
        // The functions a login and common use run are placed together (docs/PERFORMANCE.md, "How
        // restd is linked").
        .executableTarget(
            name: "restd", dependencies: ["RestDaemon", "RestCore", "EventLoop", "RestProtocol", "Localization"],
            exclude: ["restd.order"],
            linkerSettings: shippedProgram(order: "Sources/restd/restd.order")),
        .executableTarget(
            name: "restctl",
            dependencies: [
                "RestClient", "RestCore", "Clocks", "POSIXSpawn", "Localization",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: shippedProgram()),

        // Child processes, a private dbus-daemon, temporary directories and an sd_notify socket
        // for the benchmark and the integration tests (not a product: nothing ships with it).
        .target(name: "ProcessHarness", dependencies: ["POSIXSpawn", "RestCore", "Clocks", "DBusKit"]),
        // A seeded random number generator, so that a "random" test does the same on every run
        // (no Foundation, no process harness: the core's unit tests use it too).
        .target(name: "SeededRandom"),
        // The unit tests' one clock, moved by hand (the core's clocks and the timers armed on them).
        .target(name: "TestClock", dependencies: ["RestCore", "EventLoop"]),

        // Benchmarks (`make bench`): starts its own dbus-daemon and restd, measures, reports.
        // `make toml-conformance`: the TOML reader against the TOML project's compliance suite.
        .executableTarget(name: "toml-conformance", dependencies: ["TOML"]),
        .executableTarget(
            name: "restd-bench",
            dependencies: [
                "DBusKit", "CDBus", "CSystemd", "SQLiteKit", "RestCore", "Clocks", "RestProtocol", "ProcessHarness",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        .testTarget(name: "RestCoreTests", dependencies: ["RestCore", "SeededRandom", "TestClock", "Localization"]),
        .testTarget(name: "RestNotifyTests", dependencies: ["RestNotify", "RestCore", "Localization"]),
        .testTarget(name: "DBusKitTests", dependencies: ["DBusKit", "CDBus", "ProcessHarness", "SeededRandom"]),
        .testTarget(name: "TOMLTests", dependencies: ["TOML"]),
        .testTarget(
            name: "RestDaemonTests",
            dependencies: [
                "RestDaemon", "RestCore", "RestNotify", "EventLoop", "ProcessHarness", "SeededRandom", "SQLiteKit",
                "RestProtocol", "TestClock", "SoundKit", "Clocks", .product(name: "Logging", package: "swift-log"),
                // SetRows against Sets as restctl reads them.
                "RestClient",
            ],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "RestClientTests", dependencies: ["RestClient", "RestProtocol", "DBusKit"], exclude: ["Fixtures"]),
        .testTarget(
            name: "RestctlTests",
            dependencies: [
                "restctl", "RestClient", "RestProtocol", "DBusKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "RestClient", "RestCore", "Clocks", "RestProtocol", "DBusKit", "ProcessHarness", "SeededRandom",
            ],
            exclude: ["Fixtures"]),
    ]
)

// Each function in a section of its own, so that the linker can lay out the code restd runs together
// (see the restd target) and drop what nothing calls.
for target in package.targets where [.regular, .executable].contains(target.type) {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [.unsafeFlags(["-Xfrontend", "-function-sections"], .when(platforms: [.linux]))]
}
