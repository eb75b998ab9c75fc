import CIntl
import Glibc

/// How a program finds its language and its catalogs, once, before its first text.
public enum Localization {
    /// The gettext domain of every text of restd and restctl (restd.mo).
    public static let domain = "restd"

    /// Takes the language of messages from the locale (LC_ALL, else LC_MESSAGES, else LANG; then
    /// gettext follows LANGUAGE's list, as every gettext program does) and binds restd's catalogs
    /// in `directory`, by default `share/locale` beside the program's `bin`: the installed
    /// /usr/share/locale for /usr/bin/restctl, `.build/<triple>/share/locale` for a build (`make`
    /// compiles the catalogs there). Only LC_MESSAGES is set: numbers, dates and the character
    /// type keep C's rules, so that nothing a script reads changes with the language.
    ///
    /// gettext needs the locale to be generated (`locale -a` lists it; a desktop's own is): with
    /// an unknown locale, restd and restctl speak English, the source language.
    public static func start(directory: String? = nil) {
        _ = setlocale(LC_MESSAGES, "")
        guard let directory = directory ?? defaultDirectory() else { return }
        _ = bindtextdomain(domain, directory)
        _ = bind_textdomain_codeset(domain, "UTF-8")
    }

    /// The language of the catalog in use, from its header ("de"); "en", the sources', when
    /// there is none. For a page's `lang` and the log, never to choose a text: the catalog does.
    public static var language: String {
        // Without a catalog gettext returns the key's own pointer: read it while the key lives.
        let header = "".withCString { String(cString: dgettext(domain, $0)) }
        for line in header.split(separator: "\n") where line.hasPrefix("Language: ") {
            let code = line.dropFirst("Language: ".count).trimmingPrefix(" ")
            if !code.isEmpty { return String(code) }
        }
        return "en"
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
