import DBusKit
import EventLoop
import Localization
import Logging
import RestCore

/// Reads a Bluetooth heart-rate strap through BlueZ's GATT D-Bus API, on a second connection
/// to the system bus where restd is a client only (it exports and owns nothing there).
///
/// It follows org.bluez through ObjectManager (GetManagedObjects once, then InterfacesAdded,
/// InterfacesRemoved and PropertiesChanged), picks the strap `[heart_rate] bluetooth` names,
/// subscribes with StartNotify (not AcquireNotify, which locks other apps out of the strap) and
/// hands each Heart Rate Measurement that arrives as PropertiesChanged of Value to `onReading`.
/// After a reconnect or a bluetoothd restart it subscribes again; on a disconnect it calls
/// nothing. Every call is asynchronous with a timeout, and nothing is retried on a timer: with
/// no strap connected restd sleeps until BlueZ says something.
final class HeartRateFollower {
    /// The longest any call to BlueZ may take; a hung bluetoothd only costs a log line.
    static let timeoutMilliseconds: Int32 = 5_000
    /// bluetoothd's name, followed with its objects' signals: added and removed, and the changes
    /// of the devices, characteristics, batteries and adapters.
    private static let following = BusNameFollowing(
        Bluez.busName,
        alsoMatching: [MessageBus.signalRule(sender: Bluez.busName, interface: Bluez.objectManagerInterface)]
            + [Bluez.deviceInterface, Bluez.characteristicInterface, Bluez.batteryInterface, Bluez.adapterInterface].map
        {
            MessageBus.signalRule(
                sender: Bluez.busName, interface: Bluez.propertiesInterface, member: "PropertiesChanged", arg0: $0)
        })

    /// Each measurement of the strap being read, with when it arrived: recovery needs a clock that
    /// never jumps (`Instant.boottime`), what people see the wall clock (`Instant.realtime`).
    var onReading: (HeartRateReading, Instant) -> Void = { _, _ in }

    /// What `restctl sensors` shows of one strap.
    struct SensorStatus {
        var strap: BluezObjects.Strap
        /// Whether restd is reading this strap now.
        var reading: Bool
        var lastBeatsPerMinute: Int?
        /// CLOCK_REALTIME of the last measurement, 0 for none.
        var lastValueAtUSec: USec
    }

    private let loop: EventLoop
    private let clock: TimeSource
    private let logger: Logger
    private(set) var choice: StrapChoice

    private var connection: Connection?
    private var driver: BusDriver?
    private var objects = BluezObjects()
    /// The unique name of bluetoothd, when it is on the bus: signals from anyone else are ignored.
    private var owner: String?
    /// Bumped when bluetoothd leaves or returns, so that late answers to an earlier one are dropped.
    private var generation: UInt64 = 0
    /// Ready straps (connected, measurement found) in the order they became ready: "auto" reads
    /// the first.
    private var readyOrder: [String] = []
    /// The strap being read (its device path).
    private var selected: String?
    /// StartNotify per measurement characteristic: asked (answer pending) or done. Dropped when
    /// the strap disconnects, so that the next connection subscribes again.
    private var subscriptions: [String: Subscription] = [:]
    private var nextToken: UInt64 = 0
    /// The last measurement of each strap, for `sensors()`.
    private var lastValues: [String: (bpm: Int?, atUSec: USec)] = [:]
    /// Whether "no strap connected"-style states were already logged, so that each is said once.
    private var saidNoBluez = false
    /// Why there is no system bus connection to follow BlueZ on, once one failed or went away.
    private var systemBusProblem: String?

    private enum Subscription {
        case asking(token: UInt64)
        case subscribed
        /// StartNotify failed or timed out: not asked again until the strap reconnects.
        case failed
    }

    init(loop: EventLoop, clock: TimeSource, choice: StrapChoice, logger: Logger) {
        self.loop = loop
        self.clock = clock
        self.choice = choice
        self.logger = logger
    }

    // MARK: Life cycle

    /// Connects to the system bus and starts following BlueZ, unless the choice is "off". Without
    /// a system bus: one info line, and nothing more.
    func start() {
        guard choice != .off, connection == nil else { return }
        let connection: Connection
        do {
            connection = try Connection.system()
            driver = try BusDriver(connection: connection, loop: loop)
        } catch {
            systemBusProblem = localized("cannot connect to the system bus (%1$s)", String(describing: error))
            logger.info("no heart rate from Bluetooth: \(systemBusProblem ?? "")")
            driver = nil
            return
        }
        systemBusProblem = nil
        self.connection = connection
        connection.addSignalFilter { [unowned self] message in
            self.handle(message)
            return false
        }
        Self.following.start(
            on: connection, timeoutMilliseconds: Self.timeoutMilliseconds,
            ruleRefused: { [unowned self] error in
                logger.warning(
                    .init(
                        stringLiteral: localized(
                            "cannot watch BlueZ (%1$s); straps connecting later may go unnoticed", error.message))
                )
            }
        ) { [unowned self] answer in
            guard case .success(let name?) = answer else {
                logger.info(
                    "no heart rate from Bluetooth for now: \(Bluez.busName) is not on the system bus; waiting for bluetoothd"
                )
                return
            }
            bluezAppeared(name)
        }
        logger.debug("following BlueZ for heart-rate straps (bluetooth = \(choice))")
    }

    /// A new choice (a configuration reload): the strap being read may change, and "off" closes
    /// the system bus connection.
    func setChoice(_ new: StrapChoice) {
        guard new != choice else { return }
        choice = new
        if new == .off {
            if let selected, let path = objects.straps.first(where: { $0.path == selected })?.measurementPath {
                stopNotify(path)
            }
            stop()
            return
        }
        if connection == nil { return start() }
        reconcile()
    }

    /// Closes the system bus connection and forgets BlueZ.
    func stop() {
        connection?.flush()
        connection?.close()
        driver = nil
        connection = nil
        forgetBluez()
    }

    /// Why no strap can be read, as `restctl sensors` says it when it lists none: "" while
    /// restd follows bluetoothd with an adapter on.
    var problem: String {
        if choice == .off { return localized("[heart_rate] bluetooth is \"off\" in restd's config.toml") }
        if let systemBusProblem { return systemBusProblem }
        if owner == nil {
            return localized("bluetoothd is not on the system bus; start it (systemctl start bluetooth)")
        }
        if objects.adapters.count == 0 { return localized("BlueZ has no Bluetooth adapter") }
        if objects.adapters.powered == 0 { return localized("the Bluetooth adapter is off; turn it on") }
        return ""
    }

    /// Every heart-rate strap BlueZ knows, in object-path order.
    func sensors() -> [SensorStatus] {
        objects.straps.map { strap in
            let last = lastValues[strap.path]
            return SensorStatus(
                strap: strap, reading: strap.path == selected, lastBeatsPerMinute: last?.bpm,
                lastValueAtUSec: last?.atUSec ?? 0)
        }
    }

    // MARK: BlueZ coming and going

    private func bluezAppeared(_ name: String) {
        owner = name
        generation += 1
        let generation = self.generation
        connection?.call(
            destination: name, path: "/", interface: Bluez.objectManagerInterface, member: "GetManagedObjects",
            timeoutMilliseconds: Self.timeoutMilliseconds
        ) {
            [unowned self] result in
            guard generation == self.generation else { return }
            switch result {
            case .success(let reply):
                guard let body = reply.arguments().first else { return }
                objects.load(managedObjects: body)
                logger.debug("BlueZ (\(name)) knows \(objects.straps.count) heart-rate strap(s)")
                reconcile()
            case .failure(let error):
                logger.warning(
                    .init(
                        stringLiteral: localized(
                            "BlueZ did not list its objects (%1$s); waiting for it to announce them", error.message))
                )
            }
        }
    }

    private func forgetBluez() {
        owner = nil
        generation += 1
        objects.removeAll()
        subscriptions = [:]
        readyOrder = []
        selected = nil
    }

    // MARK: Signals

    private func handle(_ message: Message) {
        if message.isSignal(MessageBus.localInterface, "Disconnected") {
            // The connection and its driver stay as they are: this runs inside their dispatch, and
            // libdbus has already dropped the socket's watches.
            logger.info("the system bus went away; no heart rate from Bluetooth until restd restarts")
            systemBusProblem = localized("the system bus went away; restd reads no strap until it restarts")
            forgetBluez()
            return
        }
        if let change = Self.following.ownerChange(in: message) {
            let newOwner = change.newOwner
            if owner != nil {
                logger.info("bluetoothd left the system bus; heart rate from Bluetooth stops until it returns")
                forgetBluez()
            }
            if !newOwner.isEmpty {
                logger.info("bluetoothd is on the system bus; looking for heart-rate straps")
                bluezAppeared(newOwner)
            }
            return
        }
        guard let sender = message.sender, sender == owner, let path = message.path else { return }
        let arguments = message.arguments()
        switch (message.interface, message.member, message.signature) {
        case (Bluez.objectManagerInterface?, "InterfacesAdded"?, "oa{sa{sv}}"):
            guard let objectPath = arguments[0].string else { return }
            objects.add(path: objectPath, interfaces: arguments[1])
            reconcile()
        case (Bluez.objectManagerInterface?, "InterfacesRemoved"?, "oas"):
            guard let objectPath = arguments[0].string else { return }
            objects.remove(path: objectPath, interfaces: arguments[1].arrayElements?.compactMap(\.string) ?? [])
            reconcile()
        case (Bluez.propertiesInterface?, "PropertiesChanged"?, "sa{sv}as"):
            guard let interface = arguments[0].string, let changed = arguments[1].vardictEntries else { return }
            let invalidated = arguments[2].arrayElements?.compactMap(\.string) ?? []
            objects.change(path: path, interface: interface, changed: changed, invalidated: invalidated)
            if interface == Bluez.characteristicInterface, let value = changed["Value"] {
                measurementArrived(path: path, value: value)
            } else if interface != Bluez.characteristicInterface {
                reconcile()
            }
        default:
            break
        }
    }

    private func measurementArrived(path: String, value: DBusValue) {
        guard let device = selected, let strap = objects.straps.first(where: { $0.path == device }),
            strap.measurementPath == path
        else { return }  // another app's subscription, on another strap
        guard
            let bytes = value.arrayElements?.compactMap({ element -> UInt8? in
                if case .byte(let byte) = element { byte } else { nil }
            })
        else { return }
        let measurement: HeartRateMeasurement
        do {
            measurement = try HeartRateMeasurement.parse(bytes)
        } catch {
            logger.debug("dropped a value from \(strap.alias): \(error)")
            return
        }
        if measurement.truncatedRRInterval {
            logger.debug("a value from \(strap.alias) ended in half an RR interval; kept its heart rate")
        }
        let now = clock.now()
        lastValues[device] = (measurement.beatsPerMinute, now.realtime)
        onReading(
            HeartRateReading(
                address: strap.address, sensorName: strap.alias, measurement: measurement,
                batteryPercent: strap.batteryPercent), now)
    }

    // MARK: Choosing and subscribing

    /// After any change: which straps are ready, which one is read, and StartNotify where needed.
    private func reconcile() {
        let straps = objects.straps
        let ready = Set(straps.filter(\.isReady).map(\.path))
        readyOrder.removeAll { !ready.contains($0) }
        for strap in straps where strap.isReady && !readyOrder.contains(strap.path) { readyOrder.append(strap.path) }
        // A strap that is no longer ready lost its notification session with the connection.
        let readyMeasurements = Set(straps.filter(\.isReady).compactMap(\.measurementPath))
        for path in subscriptions.keys where !readyMeasurements.contains(path) { subscriptions[path] = nil }

        let chosen = readyOrder.first { path in
            switch choice {
            case .auto: true
            case .off: false
            case .address(let address): straps.first { $0.path == path }?.address == address
            }
        }
        if chosen != selected {
            let previous = selected.flatMap { path in straps.first { $0.path == path } }
            selected = chosen
            if let previous, previous.isReady, let measurement = previous.measurementPath {
                stopNotify(measurement)  // still connected, no longer chosen: let it save its battery
            }
            if let strap = chosen.flatMap({ path in straps.first { $0.path == path } }) {
                logger.info("reading heart rate from \(strap.alias) (\(strap.address))")
            }
        }
        if chosen == nil, owner != nil, !saidNoBluez {
            saidNoBluez = true
            let adapters = objects.adapters
            if adapters.count == 0 {
                logger.info("no heart rate from Bluetooth for now: BlueZ has no adapter")
            } else if adapters.powered == 0 {
                logger.info("no heart rate from Bluetooth for now: the Bluetooth adapter is off")
            } else {
                logger.info("no heart-rate strap connected; waiting for one")
            }
        }
        if chosen != nil { saidNoBluez = false }
        guard let chosen, let strap = straps.first(where: { $0.path == chosen }),
            let measurement = strap.measurementPath, subscriptions[measurement] == nil
        else { return }
        startNotify(measurement, strap: strap)
    }

    private func startNotify(_ path: String, strap: BluezObjects.Strap) {
        guard let owner else { return }
        nextToken += 1
        let token = nextToken
        subscriptions[path] = .asking(token: token)
        connection?.call(
            destination: owner, path: path, interface: Bluez.characteristicInterface, member: "StartNotify",
            timeoutMilliseconds: Self.timeoutMilliseconds
        ) {
            [unowned self] result in
            // Only the answer to the latest request counts: the strap may have gone and come back.
            guard case .asking(let current)? = subscriptions[path], current == token else { return }
            switch result {
            case .success:
                subscriptions[path] = .subscribed
                logger.debug("subscribed to the heart rate of \(strap.alias)")
            case .failure(let error) where error.name == "org.bluez.Error.InProgress":
                subscriptions[path] = .subscribed  // already subscribed on this connection
            case .failure(let error):
                subscriptions[path] = .failed
                logger.warning(
                    .init(
                        stringLiteral: localized(
                            "BlueZ did not subscribe to the heart rate of %1$s (%2$s: %3$s); values still come through if another app subscribed, and restd asks again when the strap reconnects",
                            strap.alias, error.name, error.message))
                )
            }
        }
    }

    private func stopNotify(_ path: String) {
        subscriptions[path] = nil
        guard let owner else { return }
        connection?.call(
            destination: owner, path: path, interface: Bluez.characteristicInterface, member: "StopNotify",
            timeoutMilliseconds: Self.timeoutMilliseconds
        ) {
            [unowned self] result in
            if case .failure(let error) = result { logger.debug("StopNotify on \(path): \(error.message)") }
        }
    }
}
