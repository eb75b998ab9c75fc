import Glibc
import Localization
import RestCore
import TOML

/// Reads `config.toml`: TOML syntax through restd's own `TOMLParser`, then every key checked against
/// `ConfigKey.all`. All problems are collected, each as `file:line: reason`, the reason a
/// sentence in restd's language.
public enum ConfigFile {
    /// `$XDG_CONFIG_HOME/restd/config.toml`, else `~/.config/restd/config.toml`.
    public static func defaultPath() -> String {
        if let config = getenv("XDG_CONFIG_HOME").map({ String(cString: $0) }), config.hasPrefix("/") {
            return config + "/restd/config.toml"
        }
        let home = getenv("HOME").map { String(cString: $0) } ?? "."
        return home + "/.config/restd/config.toml"
    }

    /// The configuration in `path`; the defaults when there is no such file (`found` false),
    /// unless `mustExist` (a file the user named: a typo must not go unnoticed).
    public static func load(
        path: String, mustExist: Bool = false
    ) throws(ConfigError)
        -> (configuration: RestdConfiguration, found: Bool)
    {
        let bytes: [UInt8]
        switch readFile(path) {
        case .success(let contents):
            bytes = contents
        case .failure(let code) where code == ENOENT && !mustExist:
            return (RestdConfiguration(), false)
        case .failure(let code) where code == ENOENT:
            throw ConfigError([
                ConfigProblem(
                    file: path, line: nil,
                    reason: localized("does not exist; check the path given to --config"))
            ])
        case .failure(let code):
            throw ConfigError([
                ConfigProblem(
                    file: path, line: nil,
                    reason: localized("cannot be read: %1$s", String(cString: strerror(code))))
            ])
        }
        return (try parse(bytes, file: path), true)
    }

    /// Parses a whole file's bytes; `file` is the name used in problems.
    public static func parse(_ bytes: [UInt8], file: String) throws(ConfigError) -> RestdConfiguration {
        // TOML forbids NUL anywhere; say so with its line rather than as a syntax error.
        if let nul = bytes.firstIndex(of: 0) {
            throw ConfigError([
                ConfigProblem(
                    file: file, line: lineNumber(at: nul, in: bytes),
                    reason: localized("the file contains a NUL byte; TOML files are UTF-8 text"))
            ])
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let bad = firstInvalidUTF8(bytes)
            throw ConfigError([
                ConfigProblem(
                    file: file, line: lineNumber(at: bad, in: bytes),
                    reason: localized("the file is not valid UTF-8, as TOML requires"))
            ])
        }
        return try parse(text, file: file)
    }

    /// Parses TOML text; `file` is the name used in problems.
    public static func parse(_ text: String, file: String) throws(ConfigError) -> RestdConfiguration {
        let table: TOMLTable
        do {
            table = try TOMLParser.parse(text)
        } catch {
            throw ConfigError([
                ConfigProblem(file: file, line: error.line, reason: localized("not valid TOML: %1$s", error.reason))
            ])
        }

        var configuration = RestdConfiguration()
        var problems: [ConfigProblem] = []
        func problem(_ line: Int, _ reason: String) {
            problems.append(ConfigProblem(file: file, line: line, reason: reason))
        }
        let keys = Dictionary(uniqueKeysWithValues: ConfigKey.all.map { ($0.path, $0) })
        var seen: Set<String> = []
        var renamedValues: [(old: String, new: String, value: TOMLValue)] = []

        func visit(_ table: TOMLTable, prefix: String) {
            for (name, value) in table.entries {
                let path = prefix.isEmpty ? name : prefix + "." + name
                seen.insert(path)
                if let newPath = ConfigKey.renamed[path] {
                    renamedValues.append((path, newPath, value))
                } else if let key = keys[path] {
                    do {
                        try key.read(value, &configuration)
                    } catch {
                        // A problem placed inside the value (a table's key) names itself in full.
                        for found in error.all {
                            if let line = found.line {
                                problem(line, found.reason)
                            } else {
                                problem(value.line, "\(path): \(found.reason)")
                            }
                        }
                    }
                } else if prefix.isEmpty, ConfigKey.tables.contains(name) {
                    guard let inner = value.table else {
                        problem(
                            value.line,
                            localized("%1$s must be a table ([%1$s]), found %2$s", path, value.typeDescription))
                        continue
                    }
                    visit(inner, prefix: path)
                } else {
                    problem(value.line, unknownKeyReason(path))
                }
            }
        }
        visit(table, prefix: "")
        for renamed in renamedValues {
            let name = MessageText.name(renamed.new)
            guard !seen.contains(renamed.new), let key = keys[renamed.new] else {
                configuration.warnings.append(
                    ConfigProblem(
                        file: file, line: renamed.value.line,
                        reason: localized(
                            "%1$s is ignored: %2$s is set, which replaces it", MessageText.name(renamed.old), name)))
                continue
            }
            do {
                try key.read(renamed.value, &configuration)
                configuration.warnings.append(
                    ConfigProblem(
                        file: file, line: renamed.value.line,
                        reason: localized("%1$s is now %2$s; it was read as that", MessageText.name(renamed.old), name))
                )
            } catch {
                for found in error.all { problem(found.line ?? renamed.value.line, "\(renamed.old): \(found.reason)") }
            }
        }
        for (line, reason) in TrainingConfig.problems(configuration, table: table) { problem(line, reason) }
        guard problems.isEmpty else {
            throw ConfigError(problems.sorted { ($0.line ?? 0, $0.reason) < ($1.line ?? 0, $1.reason) })
        }
        return configuration
    }

    /// "unknown key …", with the known key likely meant, else the list of keys.
    static func unknownKeyReason(_ path: String) -> String {
        let known = ConfigKey.all.map(\.path)
        if let meant = Suggestion.likelyMeant(path, among: known) {
            return localized("unknown key %1$s; did you mean %2$s?", MessageText.name(path), MessageText.name(meant))
        }
        return localized("unknown key %1$s; the keys are %2$s", MessageText.name(path), known.joined(separator: ", "))
    }

    private static func lineNumber(at offset: Int, in bytes: [UInt8]) -> Int {
        bytes[..<offset].reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    }

    private static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int {
        // The longest valid prefix ends at the first bad byte.
        var low = 0, high = bytes.count
        while low < high {
            let middle = (low + high + 1) / 2
            if String(validating: bytes[..<middle], as: UTF8.self) != nil { low = middle } else { high = middle - 1 }
        }
        return low
    }

    enum ReadResult {
        case success([UInt8])
        case failure(Int32)
    }

    static func readFile(_ path: String, maxBytes: Int = 1_048_576) -> ReadResult {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(errno) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return .failure(EISDIR) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(errno)
            }
            if count == 0 { return .success(bytes) }
            guard bytes.count + count <= maxBytes else { return .failure(EFBIG) }
            bytes += chunk[..<count]
        }
    }
}
