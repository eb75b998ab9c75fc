import DBusKit
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
            return "\(MessageText.quoted(name)) is a new exercise; did you mean '\(meant)'?"
        }
    }
}

/// An exercise as io.restd.Rest1.History.Exercises lists it: remembered or configured.
public struct ExerciseEntry: Sendable, Equatable {
    /// As first written.
    public var name: String
    /// Its category in config.toml, nil for none.
    public var category: String?

    public init(name: String, category: String? = nil) {
        self.name = name
        self.category = category
    }

    /// How restd compares names: `name` in lower case.
    public var key: String { name.lowercased() }
}

extension RestdClient {
    /// Every exercise restd remembers (done before) or has in its configuration.
    public func exercises() throws(ClientError) -> [ExerciseEntry] {
        let reply = try call(
            path: RestBus.historyPath, interface: RestBus.historyInterface, member: HistoryMember.exercises, [])
        guard let entries = reply.first?.arrayElements else { throw .badReply("Exercises returned no array") }
        return entries.compactMap { element in
            guard let entry = element.vardictEntries, let name = entry[HistoryKey.name]?.unwrapped.string else {
                return nil
            }
            return ExerciseEntry(name: name, category: entry[HistoryKey.category]?.unwrapped.string)
        }
    }

    /// The names of `exercises()`, as written.
    public func exerciseNames() throws(ClientError) -> [String] {
        try exercises().map(\.name)
    }
}
