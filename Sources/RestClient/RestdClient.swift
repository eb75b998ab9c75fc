import DBusKit
import Localization
import RestCore
import RestProtocol

/// Talks to restd over the session bus with blocking calls: what restctl and the tests use.
public final class RestdClient {
    public let connection: Connection
    /// How long to wait for restd (ms); generous, as a busy desktop may be slow.
    public var timeoutMilliseconds: Int32 = 25_000

    /// Connects to the session bus, or to `address` when given.
    public init(address: String? = nil) throws(ClientError) {
        do {
            if let address {
                connection = try Connection.open(address: address)
            } else {
                connection = try Connection.session()
            }
        } catch {
            throw .noBus(error.message)
        }
    }

    // MARK: Manager methods

    /// Starts (or replaces) the timer `id`; returns its object path.
    @discardableResult
    public func start(
        id: String, durationUSec: UInt64, label: String? = nil, next: String? = nil, notify: Bool? = nil,
        sound: Bool? = nil, warnUSec: UInt64? = nil
    ) throws(ClientError) -> String {
        var options: [String: DBusValue] = [:]
        if let label { options[StartOption.label] = .string(label) }
        if let next { options[StartOption.next] = .string(next) }
        if let notify { options[StartOption.notify] = .boolean(notify) }
        if let sound { options[StartOption.sound] = .boolean(sound) }
        if let warnUSec { options[StartOption.warn] = .uint64(warnUSec) }
        let reply = try callManager(ManagerMember.start, [.string(id), .uint64(durationUSec), .vardict(options)])
        guard case .objectPath(let path)? = reply.first else { throw .badReply("Start returned no object path") }
        return path
    }

    public func pause(id: String) throws(ClientError) { _ = try callManager(ManagerMember.pause, [.string(id)]) }
    public func resume(id: String) throws(ClientError) { _ = try callManager(ManagerMember.resume, [.string(id)]) }
    public func restart(id: String) throws(ClientError) { _ = try callManager(ManagerMember.restart, [.string(id)]) }
    public func cancel(id: String) throws(ClientError) { _ = try callManager(ManagerMember.cancel, [.string(id)]) }
    /// Stops the alarm of timer `id`; "" stops every ringing timer's.
    public func silence(id: String) throws(ClientError) { _ = try callManager(ManagerMember.silence, [.string(id)]) }

    /// Cancels every timer `include` selects (`cancel --all`, `clear`); returns their ids. One
    /// call per timer: a timer cancelled by someone else meanwhile is simply not counted.
    @discardableResult
    public func cancelTimers(where include: (TimerSnapshot) -> Bool) throws(ClientError) -> [String] {
        var cancelled: [String] = []
        for timer in try timers() where include(timer) {
            do {
                try cancel(id: timer.id)
                cancelled.append(timer.id)
            } catch  where error.isNoSuchTimer {
                continue
            }
        }
        return cancelled
    }

    /// Lengthens (positive) or shortens (negative) the timer `id`.
    public func adjust(id: String, deltaUSec: Int64) throws(ClientError) {
        _ = try callManager(ManagerMember.adjust, [.string(id), .int64(deltaUSec)])
    }

    /// What a click on a status bar does: silences a ringing timer (and no more), pauses a
    /// running one, resumes a paused one, restarts an expired one, and starts one of
    /// `DefaultDurationUSec` when there is none.
    public func toggle(id: String) throws(ClientError) {
        var attempts = 0
        while true {
            attempts += 1
            do {
                return try toggleOnce(id: id)
            } catch .refused(let error)
                where attempts < 2
                && (error.name == RestErrorName.invalidState || error.name == RestErrorName.noSuchTimer)
            {
                // The timer changed between reading and acting (it ran out, or was cancelled):
                // look again, once.
                continue
            }
        }
    }

    private func toggleOnce(id: String) throws(ClientError) {
        let current: TimerSnapshot?
        do {
            current = try timer(id: id)
        } catch .refused(let error) where error.name == RestErrorName.noSuchTimer {
            current = nil
        }
        guard let current else {
            try start(id: id, durationUSec: try defaultDurationUSec())
            return
        }
        if current.ringing {
            try silence(id: id)
            return
        }
        switch current.state {
        case "running": try pause(id: id)
        case "paused": try resume(id: id)
        case "expired": try restart(id: id)
        default: throw .badReply("timer \"\(id)\" is in a state restctl does not know: \(current.state)")
        }
    }

    // MARK: Training

    /// What CompleteSet answers: the rest started after the set, and the rule that chose it; and
    /// the set as restd recorded it (from SetRecorded), nil from a restd that did not say.
    public struct CompletedSet: Sendable, Equatable {
        public var timerPath: String
        public var restUSec: UInt64
        public var restSource: String
        public var recorded: HistorySet?
        /// The records the set beat (from SetRecorded).
        public var records: [PersonalRecord] = []
    }

    /// Marks a set done on timer `id` (exercise nil: the previous set's) and starts its rest.
    @discardableResult
    public func completeSet(
        id: String, exercise: String?, reps: UInt32? = nil, weightKg: Double? = nil, failed: Bool = false,
        restUSec: UInt64? = nil, untilRecovered: Bool? = nil, sound: Bool? = nil
    ) throws(ClientError) -> CompletedSet {
        var options: [String: DBusValue] = [:]
        if let reps { options[SetOption.reps] = .uint32(reps) }
        if let weightKg { options[SetOption.weightKg] = .double(weightKg) }
        if failed { options[SetOption.failed] = .boolean(true) }
        if let restUSec { options[SetOption.restUSec] = .uint64(restUSec) }
        if let untilRecovered { options[SetOption.untilRecovered] = .boolean(untilRecovered) }
        if let sound { options[SetOption.sound] = .boolean(sound) }
        let (reply, recorded, records) = try catchingSetRecorded(onTimer: id.isEmpty ? TimerID.default.rawValue : id) {
            () throws(ClientError) in
            try callManager(ManagerMember.completeSet, [.string(id), .string(exercise ?? ""), .vardict(options)])
        }
        guard reply.count == 3, case .objectPath(let path) = reply[0], let rest = reply[1].uint64,
            let source = reply[2].string
        else { throw .badReply("CompleteSet returned no (o, t, s)") }
        return CompletedSet(timerPath: path, restUSec: rest, restSource: source, recorded: recorded, records: records)
    }

    /// Makes `call` while listening for SetRecorded, which restd sends before its reply: returns
    /// the reply and the last set recorded on timer `id` meanwhile (what was recorded, reps and
    /// weight repeated from the previous set included).
    private func catchingSetRecorded(
        onTimer id: String, _ call: () throws(ClientError) -> [DBusValue]
    ) throws(ClientError) -> ([DBusValue], HistorySet?, [PersonalRecord]) {
        let rule =
            MessageBus.signalRule(sender: RestBus.name, path: RestBus.historyPath, interface: RestBus.historyInterface)
            + ",member='\(HistoryMember.setRecorded)'"
        // Without the match, the set is simply not shown.
        guard (try? connection.addMatch(rule)) != nil else { return (try call(), nil, []) }
        var recorded: HistorySet?
        var records: [PersonalRecord] = []
        let filter = connection.addSignalFilter { message in
            guard message.isSignal(RestBus.historyInterface, HistoryMember.setRecorded),
                let fields = message.vardictArgument(), let set = try? HistorySet(entry: fields), set.timer == id
            else { return false }
            recorded = set
            records = PersonalRecord.read(from: fields, set: set)
            return true
        }
        defer {
            connection.removeFilter(filter)
            connection.removeMatchAsync(rule)
        }
        let reply = try call()
        // The signal came before the reply and waits in the connection's queue.
        connection.dispatchAvailable()
        return (reply, recorded, records)
    }

    /// Ends the rest on timer `id` now, on purpose.
    public func skip(id: String) throws(ClientError) { _ = try callManager(ManagerMember.skip, [.string(id)]) }

    /// Every set in [since, until) (until 0: no end), of one exercise when given, oldest first,
    /// asked for a page at a time: restd answers at most 100,000 rows per call. Read through
    /// SetRows, whose structures cost libdbus a fraction of what Sets' dictionaries do to check,
    /// in restd, the bus and here, and which keeps to the exercise in restd's SQL. A restd from
    /// before SetRows' exercise (one still running after an upgrade) refuses that call: its Sets
    /// are read in their old form, and the exercise's kept here.
    public func historySets(
        sinceUSec: UInt64, untilUSec: UInt64, exercise: String? = nil, pageSize: UInt32 = 10_000
    ) throws(ClientError) -> [HistorySet] {
        var sets: [HistorySet] = []
        var since = sinceUSec
        var seenAtSince: Set<Int64> = []  // ids already read at the instant the next page starts from
        var current = true
        while true {
            let page: [HistorySet]
            do {
                page = try historyPage(
                    since: since, until: untilUSec, exercise: exercise ?? "", pageSize: pageSize, current: current)
            } catch .refused(let error)
                where current && (error.hasName(.unknownMethod) || error.hasName(.invalidArgs))
            {
                current = false
                continue
            }
            // The sets read already are the first ones of the page (oldest first, by id within
            // an instant): the rest is appended without a copy of the page in between.
            let seen = page.prefix { $0.atUSec == since && seenAtSince.contains($0.id) }.count
            if !current, let exercise {
                let key = ExerciseNames.key(exercise)
                sets += page[seen...].filter { ExerciseName.key(of: $0.exercise) == key }
            } else {
                sets += page[seen...]
            }
            guard page.count == Int(pageSize), let last = page.last else { return sets }
            guard seen < page.count else {
                throw .badReply("more than \(pageSize) sets at one instant; restctl cannot page through them")
            }
            if last.atUSec != since { seenAtSince = [] }
            since = last.atUSec
            seenAtSince.formUnion(page.filter { $0.atUSec == since }.map(\.id))
        }
    }

    /// One page of sets from `since`: SetRows' structures of the exercise ("" for all), or
    /// (`current` false) an older restd's Sets, every exercise's, as dictionaries.
    private func historyPage(
        since: UInt64, until: UInt64, exercise: String, pageSize: UInt32, current: Bool
    ) throws(ClientError) -> [HistorySet] {
        var page: [HistorySet] = []
        if current {
            let window: [DBusValue] = [.uint64(since), .uint64(until), .string(exercise), .uint32(pageSize)]
            let reply = try call(
                path: RestBus.historyPath, interface: RestBus.historyInterface, member: HistoryMember.setRows, window)
            guard reply.count == 1, let rows = reply[0].arrayElements else {
                throw .badReply("SetRows returned no array of \(SetRow.signature)")
            }
            page.reserveCapacity(rows.count)
            for row in rows { page.append(try HistorySet(row: row)) }
        } else {
            let window: [DBusValue] = [.uint64(since), .uint64(until), .uint32(pageSize)]
            let entries = try callForRecords(
                path: RestBus.historyPath, interface: RestBus.historyInterface, member: HistoryMember.sets, window)
            page.reserveCapacity(entries.count)
            for fields in entries { page.append(try HistorySet(entry: fields)) }
        }
        return page
    }

    /// Per exercise: sets, median planned and taken rests, median overrun, skipped rests.
    public func historyStats(
        sinceUSec: UInt64, untilUSec: UInt64, exercise: String?
    ) throws(ClientError) -> [ExerciseStatsSnapshot] {
        let entries = try callForRecords(
            path: RestBus.historyPath, interface: RestBus.historyInterface, member: HistoryMember.stats,
            [.uint64(sinceUSec), .uint64(untilUSec), .string(exercise ?? "")])
        var stats: [ExerciseStatsSnapshot] = []
        for fields in entries { stats.append(try ExerciseStatsSnapshot(entry: fields)) }
        return stats
    }

    // MARK: Live activity

    /// Merges live fields (heart_rate, progress_done, progress_total, exercise, workout, x_…).
    public func updateLive(_ fields: [String: DBusValue]) throws(ClientError) {
        _ = try callLive(LiveMember.update, [.vardict(fields)])
    }

    /// Ends the live activity: every field cleared.
    public func endLive() throws(ClientError) { _ = try callLive(LiveMember.end, []) }

    /// The last broadcast snapshot of the live fields.
    public func liveFields() throws(ClientError) -> [String: DBusValue] {
        let reply = try call(
            path: RestBus.livePath, interface: MessageBus.propertiesInterface, member: "Get",
            [.string(RestBus.liveInterface), .string(LiveProperty.fields)])
        guard let fields = reply.first?.unwrapped.vardictEntries else { throw .badReply("Fields is not a dictionary") }
        return fields
    }

    /// The heart-rate straps restd sees through BlueZ (io.restd.Rest1.Live.Sensors).
    public func sensors() throws(ClientError) -> [SensorSnapshot] {
        let reply = try callLive(LiveMember.sensors, [])
        guard let entries = reply.first?.arrayElements else { throw .badReply("Sensors returned no array") }
        var sensors: [SensorSnapshot] = []
        for entry in entries {
            guard let fields = entry.vardictEntries else { throw .badReply("a sensor is not a dictionary") }
            sensors.append(try SensorSnapshot(entry: fields))
        }
        return sensors
    }

    /// Why restd reads no strap, in one sentence; "" when it follows bluetoothd (or is a restd
    /// from before the question).
    public func sensorsProblem() throws(ClientError) -> String {
        do {
            return try callLive(LiveMember.sensorsProblem, []).first?.string ?? ""
        } catch .refused(let error) where error.hasName(.unknownMethod) {
            return ""
        }
    }

    private func callLive(_ member: String, _ arguments: [DBusValue]) throws(ClientError) -> [DBusValue] {
        try call(path: RestBus.livePath, interface: RestBus.liveInterface, member: member, arguments)
    }

    // MARK: Reading

    /// One timer's current properties.
    public func timer(id: String) throws(ClientError) -> TimerSnapshot {
        let request = try timerRequest(id: id)
        return try timerSnapshot(id: id, from: reply(to: request))
    }

    /// One timer's current properties, and whether restd's notifications can be seen (nil from a
    /// restd too old to say): both asked at once, one round trip, for `restctl status`.
    public func timerAndNotificationServer(id: String) throws(ClientError) -> (TimerSnapshot, NotificationServerState?)
    {
        let replies = connection.callBlocking(
            [try timerRequest(id: id), try notificationServerRequest()], timeoutMilliseconds: timeoutMilliseconds)
        let timer = try timerSnapshot(id: id, from: replies[0].mapError(clientError))
        return (timer, try? notificationServer(from: replies[1].mapError(clientError)))
    }

    /// The GetAll of timer `id`, an id checked here with restd's rule: the call would otherwise
    /// answer "no timer".
    private func timerRequest(id: String) throws(ClientError) -> Message {
        do {
            _ = try TimerID(parsing: id)
        } catch {
            throw .refused(DBusError(name: RestErrorName.invalidArgs, message: error.message))
        }
        return try request(
            path: RestBus.timerPath(id: id), interface: MessageBus.propertiesInterface, member: "GetAll",
            [.string(RestBus.timerInterface)])
    }

    private func timerSnapshot(
        id: String, from reply: Result<Message, ClientError>
    ) throws(ClientError) -> TimerSnapshot {
        let arguments: [DBusValue]
        switch reply {
        case .success(let message):
            arguments = message.arguments()
        case .failure(.refused(let error)) where error.hasName(.unknownObject):
            // restd's own sentence for a timer it does not have (TimerBook), in the reader's language.
            throw .refused(
                DBusError(name: RestErrorName.noSuchTimer, message: localized("no timer %1$s", MessageText.quoted(id))))
        case .failure(let error):
            throw error
        }
        guard let properties = arguments.first?.vardictEntries else { throw .badReply("GetAll returned no dictionary") }
        return try TimerSnapshot(properties: properties)
    }

    /// Every timer, by id.
    public func timers() throws(ClientError) -> [TimerSnapshot] {
        let reply = try call(
            path: RestBus.managerPath, interface: MessageBus.objectManagerInterface,
            member: "GetManagedObjects", [])
        guard let objects = reply.first?.dictEntries else {
            throw .badReply("GetManagedObjects returned no dictionary")
        }
        var timers: [TimerSnapshot] = []
        for object in objects {
            guard let interfaces = object.value.dictEntries,
                let timer = interfaces.first(where: { $0.key.string == RestBus.timerInterface }),
                let properties = timer.value.vardictEntries
            else { continue }
            timers.append(try TimerSnapshot(properties: properties))
        }
        return timers.sorted { $0.id < $1.id }
    }

    /// restd's unique name on the bus, nil when it is not running. Asks the bus, not restd,
    /// so that it never starts restd by D-Bus activation.
    public func daemonOwner() throws(ClientError) -> String? {
        let reply: [DBusValue]
        do {
            let message = try Message.methodCall(
                destination: MessageBus.name, path: MessageBus.path,
                interface: MessageBus.interface, member: "GetNameOwner")
            try message.append([.string(RestBus.name)])
            reply = try connection.callBlocking(message, timeoutMilliseconds: timeoutMilliseconds).arguments()
        } catch {
            if error.hasName(.nameHasNoOwner) { return nil }
            if error.hasName(.disconnected) || error.hasName(.noServer) { throw .busLost(error.message) }
            throw .refused(error)
        }
        guard let name = reply.first?.string else { throw .badReply("GetNameOwner returned no name") }
        return name
    }

    /// The daemon's version.
    public func version() throws(ClientError) -> String {
        let reply = try call(
            path: RestBus.managerPath, interface: MessageBus.propertiesInterface, member: "Get",
            [.string(RestBus.managerInterface), .string("Version")])
        guard let version = reply.first?.unwrapped.string else { throw .badReply("Version is not a string") }
        return version
    }

    /// The rest to start when the user gives no duration: restd's `DefaultDurationUSec`
    /// (its configured `default_duration`), or 90 s from a restd too old to have the property.
    public func defaultDurationUSec() throws(ClientError) -> UInt64 {
        let reply: [DBusValue]
        do {
            reply = try call(
                path: RestBus.managerPath, interface: MessageBus.propertiesInterface, member: "Get",
                [.string(RestBus.managerInterface), .string(ManagerProperty.defaultDurationUSec)])
        } catch .refused(let error) where error.hasName(.unknownProperty) || error.name == RestErrorName.invalidArgs {
            return Self.fallbackDefaultDurationUSec
        }
        guard let usec = reply.first?.unwrapped.uint64 else { throw .badReply("DefaultDurationUSec is not a uint64") }
        return usec
    }

    /// Whether restd's notifications can be seen (`NotificationServer`); nil from a restd too old
    /// to say, or a value this restctl does not know.
    public func notificationServer() throws(ClientError) -> NotificationServerState? {
        try notificationServer(from: reply(to: try notificationServerRequest()))
    }

    /// Whether restd's own sounds can be heard (`SoundServer`); nil from a restd too old to say,
    /// or a value this restctl does not know.
    public func soundServer() throws(ClientError) -> SoundServerState? {
        let request = try managerPropertyRequest(ManagerProperty.soundServer)
        return try managerString(ManagerProperty.soundServer, from: reply(to: request))
            .flatMap(SoundServerState.init(rawValue:))
    }

    /// The unit weights are read and typed in (the Manager's `WeightUnit`); kg from a restd too
    /// old to say (whatever it refuses the question with), or with a value this restctl does not
    /// know.
    public func weightUnit() throws(ClientError) -> WeightUnit {
        let request = try managerPropertyRequest(ManagerProperty.weightUnit)
        let answer: String?
        do {
            answer = try managerString(ManagerProperty.weightUnit, from: reply(to: request))
        } catch .refused {
            return .kg
        }
        return answer.flatMap(WeightUnit.init(rawValue:)) ?? .kg
    }

    private func notificationServerRequest() throws(ClientError) -> Message {
        try managerPropertyRequest(ManagerProperty.notificationServer)
    }

    private func notificationServer(
        from reply: Result<Message, ClientError>
    ) throws(ClientError) -> NotificationServerState? {
        try managerString(ManagerProperty.notificationServer, from: reply).flatMap(
            NotificationServerState.init(rawValue:))
    }

    private func managerPropertyRequest(_ name: String) throws(ClientError) -> Message {
        try request(
            path: RestBus.managerPath, interface: MessageBus.propertiesInterface, member: "Get",
            [.string(RestBus.managerInterface), .string(name)])
    }

    /// The string value of the Manager's property `name`; nil from a restd too old to have it.
    private func managerString(
        _ name: String, from reply: Result<Message, ClientError>
    ) throws(ClientError) -> String? {
        let arguments: [DBusValue]
        switch reply {
        case .success(let message):
            arguments = message.arguments()
        case .failure(.refused(let error))
        where error.hasName(.unknownProperty) || error.name == RestErrorName.invalidArgs:
            return nil
        case .failure(let error):
            throw error
        }
        guard let value = arguments.first?.unwrapped.string else {
            throw .badReply("\(name) is not a string")
        }
        return value
    }

    /// Whether this caller is the first to hear that no notification server can show anything
    /// since it went missing (`TakeNotificationServerWarning`); false from a restd too old to say.
    public func takeNotificationServerWarning() throws(ClientError) -> Bool {
        let reply: [DBusValue]
        do {
            reply = try callManager(ManagerMember.takeNotificationServerWarning, [])
        } catch .refused(let error) where error.hasName(.unknownMethod) {
            return false
        }
        guard case .boolean(let warn)? = reply.first else {
            throw .badReply("TakeNotificationServerWarning returned no boolean")
        }
        return warn
    }

    /// Whether this caller is the first to hear that no sound server plays restd's sounds since it
    /// went missing (`TakeSoundServerWarning`); false from a restd too old to say.
    public func takeSoundServerWarning() throws(ClientError) -> Bool {
        let reply: [DBusValue]
        do {
            reply = try callManager(ManagerMember.takeSoundServerWarning, [])
        } catch .refused(let error) where error.hasName(.unknownMethod) {
            return false
        }
        guard case .boolean(let warn)? = reply.first else {
            throw .badReply("TakeSoundServerWarning returned no boolean")
        }
        return warn
    }

    /// Has restd read config.toml again (`Reload`): the keys that changed, none when nothing did.
    /// A wrong file is refused with its `file:line: reason` and the configuration stays.
    public func reload() throws(ClientError) -> [String] {
        let reply = try callManager(ManagerMember.reload, [])
        guard let keys = reply.first?.arrayElements?.compactMap(\.string), keys.count == reply[0].arrayElements?.count
        else { throw .badReply("Reload returned no array of keys") }
        return keys
    }

    /// The default rest of a restd without `DefaultDurationUSec`.
    public static let fallbackDefaultDurationUSec: UInt64 = 90_000_000

    // MARK: Calls

    private func callManager(_ member: String, _ arguments: [DBusValue]) throws(ClientError) -> [DBusValue] {
        try call(path: RestBus.managerPath, interface: RestBus.managerInterface, member: member, arguments)
    }

    /// One blocking method call to restd. Not being on the bus becomes `.daemonNotRunning`, a
    /// failed D-Bus activation `.startFailed` (`StartFailure`).
    public func call(
        path: String, interface: String, member: String, _ arguments: [DBusValue]
    ) throws(ClientError) -> [DBusValue] {
        try reply(path: path, interface: interface, member: member, arguments).arguments()
    }

    /// A method call to restd, not sent yet.
    private func request(
        path: String, interface: String, member: String, _ arguments: [DBusValue]
    ) throws(ClientError) -> Message {
        do {
            let message = try Message.methodCall(
                destination: RestBus.name, path: path, interface: interface, member: member)
            try message.append(arguments)
            return message
        } catch {
            throw clientError(error)
        }
    }

    /// Sends `request` and waits for its answer.
    private func reply(to request: Message) -> Result<Message, ClientError> {
        do {
            return .success(try connection.callBlocking(request, timeoutMilliseconds: timeoutMilliseconds))
        } catch {
            return .failure(clientError(error))
        }
    }

    /// What a D-Bus error from a call to restd means for restctl.
    private func clientError(_ error: DBusError) -> ClientError {
        if StartFailure.matches(error, connection: connection) {
            return .startFailed(StartFailure.sentence(error, connection: connection))
        }
        if error.hasName(.serviceUnknown) || error.hasName(.nameHasNoOwner) { return .daemonNotRunning }
        if error.hasName(.disconnected) || error.hasName(.noServer) { return .busLost(error.message) }
        return .refused(error)
    }

    /// A call whose answer is a list of records (`aa{sv}`: stats), read
    /// straight into dictionaries (`Message.recordsArgument`).
    func callForRecords(
        path: String, interface: String, member: String, _ arguments: [DBusValue]
    ) throws(ClientError) -> [[String: DBusValue]] {
        let answer = try reply(path: path, interface: interface, member: member, arguments)
        guard let records = answer.recordsArgument() else { throw .badReply("\(member) returned no list of records") }
        return records
    }

    private func reply(
        path: String, interface: String, member: String, _ arguments: [DBusValue]
    ) throws(ClientError) -> Message {
        try reply(to: try request(path: path, interface: interface, member: member, arguments)).get()
    }
}
