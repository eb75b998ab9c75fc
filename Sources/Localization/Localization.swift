import Glibc

/// How a program finds its language and its catalog, once, before its first text.
public enum Localization {
    /// The gettext domain of every text of restd and restctl (restd.mo).
    public static let domain = "restd"

    /// The catalog `start` found; nil for the source texts (English).
    nonisolated(unsafe) public private(set) static var catalog: MessageCatalog?

    /// Chooses the language from the environment (`LanguageChoice`) and reads its catalog from
    /// `directory`, by default `share/locale` beside the program's `bin`: the installed
    /// /usr/share/locale for /usr/bin/restctl, `.build/<triple>/share/locale` for a build (`make`
    /// compiles the catalogs there). The first language with a catalog wins; English, the
    /// sources' language, ends the search. Nothing else of the locale changes: numbers, dates
    /// and the character type keep C's rules, so that nothing a script reads changes with the
    /// language. Called once, before any thread starts.
    public static func start(directory: String? = nil, environment: [String: String] = processEnvironment()) {
        catalog = (directory ?? defaultDirectory()).flatMap { find(in: $0, environment: environment) }
    }

    /// The catalog `start` chooses in `directory` for `environment`; nil for the source texts.
    public static func find(in directory: String, environment: [String: String]) -> MessageCatalog? {
        for language in LanguageChoice.languages(environment: environment) {
            for name in LanguageChoice.catalogNames(language) {
                // An unreadable file is passed over, as gettext passes over a catalog it cannot use.
                if let found = try? MessageCatalog(path: "\(directory)/\(name)/LC_MESSAGES/\(domain).mo") {
                    return found
                }
            }
            if LanguageChoice.isSource(language) { return nil }
        }
        return nil
    }

    /// The language of the catalog in use, from its header ("de"); "en", the sources', when
    /// there is none. For a page's `lang` and the log, never to choose a text: the catalog does.
    public static var language: String {
        catalog.map { $0.language ?? "en" } ?? "en"
    }

    /// The variables that choose the language, from the process's environment.
    public static func processEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        for name in ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }

    /// `<program's folder>/../share/locale`, from /proc/self/exe; nil when it cannot be read.
    static func defaultDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let program = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = program.lastIndex(of: "/") else { return nil }
        return program[..<slash] + "/../share/locale"
    }
}
