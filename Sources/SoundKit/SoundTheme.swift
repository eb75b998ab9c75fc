import Glibc

/// Finds a named sound in the desktop's sound theme, as the freedesktop.org Sound Theme and Sound
/// Naming specifications say: in the theme's directories under `sounds/` of each XDG data
/// directory (`$XDG_DATA_HOME`, then `$XDG_DATA_DIRS`), stereo ones first, then the themes it
/// inherits from, then `freedesktop`, the fallback every theme implies, then unthemed files in
/// `sounds/` itself. A name not found is tried without its last dash-separated part
/// (`alarm-clock-elapsed`, then `alarm-clock`, then `alarm`), as the naming specification asks of
/// players. A `NAME.disabled` file in a theme means the theme plays nothing for that name.
public struct SoundTheme: Sendable {
    /// The `sounds` directories searched, in order.
    public let soundDirectories: [String]

    public init(soundDirectories: [String]) {
        self.soundDirectories = soundDirectories
    }

    /// The directories the XDG Base Directory specification gives for the environment `variable` reads.
    public init(environment variable: (String) -> String?) {
        var dataDirectories: [String] = []
        if let home = variable("XDG_DATA_HOME"), home.hasPrefix("/") {
            dataDirectories.append(home)
        } else if let home = variable("HOME"), home.hasPrefix("/") {
            dataDirectories.append(home + "/.local/share")
        }
        let system = variable("XDG_DATA_DIRS").flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        dataDirectories += system.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        self.init(soundDirectories: dataDirectories.map { $0 + "/sounds" })
    }

    /// The files tried, in this order, for a name in a theme directory.
    static let extensions = ["disabled", "oga", "ogg", "wav"]
    /// The theme every theme falls back to, and the one used when none is named.
    public static let fallbackTheme = "freedesktop"

    /// What the theme `themeName` plays for the event `name`: a file, `.disabled` when the theme
    /// plays nothing for it, `.notFound` when no theme has it.
    public func lookup(_ name: String, themeName: String) -> Lookup {
        var candidate = Substring(name)
        while !candidate.isEmpty {
            if let found = lookupExact(String(candidate), themeName: themeName) { return found }
            guard let dash = candidate.lastIndex(of: "-") else { break }
            candidate = candidate[..<dash]
        }
        return .notFound
    }

    public enum Lookup: Equatable, Sendable {
        case file(String)
        case disabled
        case notFound
    }

    private func lookupExact(_ name: String, themeName: String) -> Lookup? {
        var visited: Set<String> = []
        var queue = [themeName]
        if themeName != Self.fallbackTheme { queue.append(Self.fallbackTheme) }
        while !queue.isEmpty {
            let theme = queue.removeFirst()
            guard !theme.isEmpty, !visited.contains(theme), !theme.contains("/") else { continue }
            visited.insert(theme)
            guard let index = themeIndex(theme) else { continue }
            for directory in index.directories {
                for base in soundDirectories {
                    if let found = file(name, in: "\(base)/\(theme)/\(directory)") { return found }
                }
            }
            // Parents before the fallback, which stays last.
            let parents = index.inherits.filter { !visited.contains($0) }
            queue.insert(contentsOf: parents, at: queue.firstIndex(of: Self.fallbackTheme) ?? queue.endIndex)
        }
        for base in soundDirectories {
            if let found = file(name, in: base) { return found }
        }
        return nil
    }

    private func file(_ name: String, in directory: String) -> Lookup? {
        for ext in Self.extensions {
            let path = "\(directory)/\(name).\(ext)"
            if access(path, R_OK) == 0 { return ext == "disabled" ? .disabled : .file(path) }
        }
        return nil
    }

    /// A theme's `index.theme`, from the first sounds directory that has one.
    private func themeIndex(_ theme: String) -> ThemeIndex? {
        for base in soundDirectories {
            if let text = Self.readFile("\(base)/\(theme)/index.theme") { return ThemeIndex(text) }
        }
        return nil
    }

    static func readFile(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let count = fread(&chunk, 1, chunk.count, file)
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The parts of a sound theme's `index.theme` that say where its sounds are.
struct ThemeIndex: Equatable {
    var inherits: [String] = []
    /// Its directories, stereo ones first (restd plays to whatever the server has; stereo is
    /// what nearly every output is).
    var directories: [String] = []

    init(_ text: String) {
        var section = ""
        var listed: [String] = []
        var profiles: [String: String] = [:]
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast())
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingSpaces
            let value = line[line.index(after: equals)...].trimmingSpaces
            let list = value.split(separator: ",").map { $0.trimmingSpaces }.filter { !$0.isEmpty }
            switch (section, key) {
            case ("Sound Theme", "Inherits"): inherits = list
            case ("Sound Theme", "Directories"): listed = list
            case (_, "OutputProfile"): profiles[section] = value
            default: break
            }
        }
        directories =
            listed.filter { profiles[$0, default: "stereo"] == "stereo" }
            + listed.filter { profiles[$0, default: "stereo"] != "stereo" }
    }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
