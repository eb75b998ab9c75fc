import Glibc

/// One language's compiled catalog, a gettext `.mo` file (`msgfmt` makes it from po/LANG.po),
/// read whole into a table. restd reads it itself rather than through glibc's gettext, which
/// speaks a language only in a locale generated on the machine: a daemon a systemd user unit
/// starts with `LANG=de_DE.UTF-8` speaks German whether or not that locale exists.
///
/// The format (GNU gettext manual, "The Format of GNU MO Files"): a magic number that also tells
/// the byte order, a revision, the number of texts, and two tables of (length, offset) pairs,
/// originals and translations, in the same order. An original with a context is
/// "context\u{4}text"; one with a plural is "singular\0plural", its translation the plural forms
/// separated by NUL.
public struct MessageCatalog: Sendable {
    /// A file that is not a catalog restd can read, as the end of a sentence.
    public struct Unreadable: Error, Equatable, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// The translations by key ("text", or "context\u{4}text"): one form, or one per plural form.
    let translations: [String: [String]]
    /// Which plural form a count takes (the header's Plural-Forms; English's when there is none).
    public let pluralRule: PluralRule
    /// The header's `Language`, as "de"; nil when the header does not say.
    public let language: String?

    public init(translations: [String: [String]], pluralRule: PluralRule = .english, language: String? = nil) {
        self.translations = translations
        self.pluralRule = pluralRule
        self.language = language
    }

    /// Reads the catalog in `bytes`, the whole content of a .mo file.
    public init(bytes: [UInt8]) throws(Unreadable) {
        guard bytes.count >= 20 else { throw Unreadable(description: "too short for a catalog") }
        let bigEndian: Bool
        switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
        case (0xde, 0x12, 0x04, 0x95): bigEndian = false
        case (0x95, 0x04, 0x12, 0xde): bigEndian = true
        default: throw Unreadable(description: "not a gettext catalog (no .mo magic number)")
        }
        func word(_ offset: Int) throws(Unreadable) -> Int {
            guard offset >= 0, offset + 4 <= bytes.count else {
                throw Unreadable(description: "a table points past the end of the file")
            }
            let value = (0..<4).reduce(UInt32(0)) { value, index in
                let byte = UInt32(bytes[offset + (bigEndian ? index : 3 - index)])
                return value << 8 | byte
            }
            return Int(value)
        }
        func string(table: Int, index: Int) throws(Unreadable) -> String {
            let length = try word(table + index * 8)
            let start = try word(table + index * 8 + 4)
            guard start + length <= bytes.count else {
                throw Unreadable(description: "a text runs past the end of the file")
            }
            return String(decoding: bytes[start..<start + length], as: UTF8.self)
        }
        guard try word(4) >> 16 == 0 else { throw Unreadable(description: "a catalog revision restd does not know") }
        let count = try word(8)
        let originals = try word(12)
        let translated = try word(16)
        var translations: [String: [String]] = [:]
        translations.reserveCapacity(count)
        var header = ""
        for index in 0..<count {
            let original = try string(table: originals, index: index)
            let translation = try string(table: translated, index: index)
            guard !original.isEmpty else {
                header = translation
                continue
            }
            let key = original.split(separator: "\0", maxSplits: 1, omittingEmptySubsequences: false)[0]
            translations[String(key)] = translation.split(separator: "\0", omittingEmptySubsequences: false)
                .map(String.init)
        }
        let fields = MessageCatalog.headerFields(header)
        if let type = fields["Content-Type"], let charset = type.split(separator: "charset=").last,
            charset.lowercased() != "utf-8"
        {
            throw Unreadable(description: "written in \(charset), not UTF-8")
        }
        self.translations = translations
        pluralRule = fields["Plural-Forms"].flatMap(PluralRule.init(header:)) ?? .english
        language = fields["Language"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Reads the catalog at `path`; nil when there is no file there.
    public init?(path: String) throws(Unreadable) {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let read = fread(&chunk, 1, chunk.count, file)
            bytes += chunk[..<read]
            if read < chunk.count { break }
        }
        try self.init(bytes: bytes)
    }

    /// The translation of `text` (in `context`), in the form `count` takes when there is a
    /// `plural`; nil when the catalog has none (or an empty one, which msgfmt leaves out anyway).
    public func translation(context: String?, text: String, plural: String?, count: UInt) -> String? {
        let key = context.map { $0 + "\u{4}" + text } ?? text
        guard let forms = translations[key] else { return nil }
        let form = plural == nil ? 0 : pluralRule.form(for: count)
        guard form < forms.count, !forms[form].isEmpty else { return nil }
        return forms[form]
    }

    /// The header's "Name: value" lines.
    static func headerFields(_ header: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in header.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            fields[String(line[..<colon])] = String(value)
        }
        return fields
    }
}
