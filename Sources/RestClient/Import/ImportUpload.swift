import DBusKit
import RestCore
import RestProtocol

/// An import sent to restd: begun, its sets added in batches as the file is read, then
/// committed (or counted, dry) in one call. Until it is committed restd adds nothing, and it
/// drops the staged sets when restctl leaves the bus.
extension RestdClient {
    /// Sets sent in one AddImportRows (restd takes at most 5,000).
    public static let importBatchSize = 5_000

    /// BeginImport: the handle of a new import of `source`'s sets.
    public func beginImport(source: ImportFormat) throws(ClientError) -> String {
        let reply = try call(
            path: RestBus.managerPath, interface: RestBus.managerInterface, member: ManagerMember.beginImport,
            [.string(source.rawValue)])
        guard case .string(let handle)? = reply.first else { throw .badReply("BeginImport returned no handle") }
        return handle
    }

    /// AddImportRows: `sets` added to the import `handle`.
    public func addImportRows(_ handle: String, _ sets: [ImportedSet]) throws(ClientError) {
        let rows = sets.map { set in
            DBusValue.structure([
                .string(set.workoutStart), .string(set.workoutName), .string(set.exercise),
                .uint32(UInt32(clamping: set.order)), .uint64(set.atUSec), .uint32(set.reps ?? SetRow.noReps),
                .double(set.weightKg ?? .nan), .boolean(set.warmup), .boolean(set.failed),
                .string(set.category ?? ""),
            ])
        }
        _ = try call(
            path: RestBus.managerPath, interface: RestBus.managerInterface, member: ManagerMember.addImportRows,
            [.string(handle), .array(Self.importRowType, rows)])
    }

    /// CommitImport: what the import `handle` added (or, dry, would add).
    public func commitImport(_ handle: String, dryRun: Bool) throws(ClientError) -> ImportOutcome {
        let reply = try call(
            path: RestBus.managerPath, interface: RestBus.managerInterface, member: ManagerMember.commitImport,
            [.string(handle), .vardict([ImportKey.dryRun: .boolean(dryRun)])])
        guard let entries = reply.first?.vardictEntries else { throw .badReply("CommitImport returned no a{sv}") }
        func count(_ key: String) throws(ClientError) -> Int {
            guard case .uint32(let value)? = entries[key]?.unwrapped else {
                throw .badReply("CommitImport's reply has no \(key)")
            }
            return Int(value)
        }
        func names(_ key: String) -> [String] {
            guard case .array(_, let values)? = entries[key]?.unwrapped else { return [] }
            return values.compactMap(\.string)
        }
        var outcome = ImportOutcome()
        outcome.dryRun = entries[ImportKey.dryRun]?.unwrapped.bool ?? dryRun
        outcome.setsAdded = try count(ImportKey.setsAdded)
        outcome.warmupsAdded = try count(ImportKey.warmupsAdded)
        outcome.workoutsAdded = try count(ImportKey.workoutsAdded)
        outcome.alreadyImported = try count(ImportKey.alreadyImported)
        outcome.alreadyRecorded = try count(ImportKey.alreadyRecorded)
        outcome.newExercises = names(ImportKey.newExercises)
        outcome.matchedExercises = names(ImportKey.matchedExercises)
        outcome.earliestUSec = entries[ImportKey.earliestUSec]?.unwrapped.uint64
        outcome.latestUSec = entries[ImportKey.latestUSec]?.unwrapped.uint64
        return outcome
    }

    private static let importRowType = DBusType.structure([
        .string, .string, .string, .uint32, .uint64, .uint32, .double, .boolean, .boolean, .string,
    ])
}
