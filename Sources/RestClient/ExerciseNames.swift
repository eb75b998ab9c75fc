import DBusKit
import Localization
import RestCore
import RestProtocol

/// A new exercise whose name is a typo away from one restd knows: "Sqaut" recorded as an
/// exercise of its own is what a user most likely did not mean. An unknown name is still simply
/// new (there is no catalogue to fill in first), so this is a note, not a refusal.
public enum ExerciseNames {
    /// How restd compares names (`ExerciseName.key`); "" for a name it would refuse.
    static func key(_ name: String) -> String {
        (try? ExerciseName(parsing: name))?.key ?? ""
    }

    /// The known name `name` was likely meant to be, when `name` is not itself known: one edit
    /// away for names of up to 4 characters, two for longer ones.
    public static func likelyMeant(_ name: String, known: [String]) -> String? {
        let typed = key(name)
        let keys = known.map(key)  // known names were accepted, so none is ""
        guard !typed.isEmpty, !keys.contains(typed) else { return nil }
        let maxDistance = typed.count <= 4 ? 1 : 2
        guard let near = Suggestion.nearest(typed, among: keys, maxDistance: maxDistance) else { return nil }
        return known[keys.firstIndex(of: near)!]
    }

    /// `"Sqaut" is a new exercise; did you mean 'Squat'?`, for each of `names` likely mistyped.
    public static func notes(for names: [String], known: [String]) -> [String] {
        var seen = Set<String>()
        return names.compactMap { name in
            guard seen.insert(key(name)).inserted, let meant = likelyMeant(name, known: known) else { return nil }
            return localized(
                "%1$s is a new exercise; did you mean %2$s?", MessageText.quoted(name), MessageText.name(meant))
        }
    }
}

/// An exercise as io.restd.Rest1.History.Exercises lists it: remembered or configured, with what
/// restctl needs to group it (its category) and to say why a rest was chosen.
public struct KnownExercise: Sendable, Equatable {
    /// As first written.
    public var name: String
    /// Its category in config.toml, else the one an import gave it (FitNotes' Category); nil for none.
    public var category: String?
    /// The rest it last ran with, after any add or sub.
    public var lastRestUSec: UInt64?
    /// The rest of its category in [categories], when it has one.
    public var categoryRestUSec: UInt64?

    public init(
        name: String, category: String? = nil, lastRestUSec: UInt64? = nil, categoryRestUSec: UInt64? = nil
    ) {
        self.name = name
        self.category = category
        self.lastRestUSec = lastRestUSec
        self.categoryRestUSec = categoryRestUSec
    }

    /// How restd compares names.
    public var key: String { ExerciseNames.key(name) }

    /// Its category's rest when the rest last used won over it with another length: what
    /// `restctl set` names, so that a changed category rest that does not apply explains itself.
    public var categoryRestPassedOver: UInt64? {
        guard let lastRestUSec, let categoryRestUSec, categoryRestUSec != lastRestUSec else { return nil }
        return categoryRestUSec
    }
}

extension RestdClient {
    /// Every exercise restd remembers (done before) or has in its configuration, as written.
    public func exerciseNames() throws(ClientError) -> [String] {
        try exercises().map(\.name)
    }

    /// Every exercise restd remembers or has in its configuration.
    public func exercises() throws(ClientError) -> [KnownExercise] {
        let reply = try call(
            path: RestBus.historyPath, interface: RestBus.historyInterface, member: HistoryMember.exercises, [])
        guard let entries = reply.first?.arrayElements else { throw .badReply("Exercises returned no array") }
        return entries.compactMap { entry in
            guard let fields = entry.vardictEntries, let name = fields[HistoryKey.name]?.unwrapped.string else {
                return nil
            }
            return KnownExercise(
                name: name, category: fields[HistoryKey.category]?.unwrapped.string,
                lastRestUSec: fields[HistoryKey.lastRestUSec]?.unwrapped.uint64,
                categoryRestUSec: fields[HistoryKey.categoryRestUSec]?.unwrapped.uint64)
        }
    }

    /// The exercise named `name` (compared as restd compares names), when restd knows it.
    public func exercise(named name: String) throws(ClientError) -> KnownExercise? {
        let key = ExerciseNames.key(name)
        return try exercises().first { ExerciseNames.key($0.name) == key }
    }
}
