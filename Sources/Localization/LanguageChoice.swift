/// Which languages a program speaks, best first, from its environment, as gettext programs
/// choose (GNU gettext manual, "Locale Environment Variables"): the locale is the first set of
/// LC_ALL, LC_MESSAGES and LANG; LANGUAGE, a list such as `de_AT:de`, comes before it; the
/// locale C or POSIX means the source texts, whatever LANGUAGE says (`LC_ALL=C restctl …` is how
/// a script asks for them).
///
/// Unlike glibc's gettext, nothing here needs the locale to be generated on the machine: a
/// name is only a name to look catalogs up by. So `C.UTF-8` (Debian's default where no locale
/// is set) still follows LANGUAGE.
public enum LanguageChoice {
    /// The languages to look for, best first; empty for the source texts.
    public static func languages(environment: [String: String]) -> [String] {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        guard let locale, locale != "C", locale != "POSIX" else { return [] }
        let list = (environment["LANGUAGE"] ?? "").split(separator: ":").map(String.init)
        guard list.isEmpty else { return list }
        let language = locale.split(separator: ".", maxSplits: 1)[0]
        return language == "C" ? [] : [locale]
    }

    /// The names a language's catalog may be filed under, most specific first, as gettext looks
    /// them up: `de_DE.UTF-8@euro` → `de_DE.UTF-8@euro`, `de_DE@euro`, `de.UTF-8@euro`, `de@euro`,
    /// `de_DE.UTF-8`, `de_DE`, `de.UTF-8`, `de`.
    public static func catalogNames(_ language: String) -> [String] {
        var rest = Substring(language)
        var modifier: Substring?
        if let at = rest.firstIndex(of: "@") {
            modifier = rest[rest.index(after: at)...]
            rest = rest[..<at]
        }
        var codeset: Substring?
        if let dot = rest.firstIndex(of: ".") {
            codeset = rest[rest.index(after: dot)...]
            rest = rest[..<dot]
        }
        var territory: Substring?
        if let underscore = rest.firstIndex(of: "_") {
            territory = rest[rest.index(after: underscore)...]
            rest = rest[..<underscore]
        }
        // gettext's order: the modifier kept longest, then the territory, then the codeset.
        var names: [String] = []
        for modifier in [modifier.map { "@\($0)" }, ""].compactMap({ $0 }) {
            for territory in [territory.map { "_\($0)" }, ""].compactMap({ $0 }) {
                for codeset in [codeset.map { ".\($0)" }, ""].compactMap({ $0 }) {
                    names.append(String(rest) + territory + codeset + modifier)
                }
            }
        }
        return names.filter { !$0.isEmpty }
    }

    /// Whether `language` is English, the language of the sources, which has no catalog of its own.
    static func isSource(_ language: String) -> Bool {
        catalogNames(language).last == "en"
    }
}
