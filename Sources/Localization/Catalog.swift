/// The texts a person reads, in their language: restd's gettext catalogs (po/*.po, compiled to
/// share/locale/LANG/LC_MESSAGES/restd.mo), read by `MessageCatalog`.
///
/// Every translatable text is a literal at one of these calls, where `make pot` finds it
/// (xgettext's C mode, keywords `localized`, `localizedPlural`, `localizedInContext`). A text
/// with values names them by position, `%1$s`, `%2$d`, so that a translation may reorder them;
/// `s` and `d` both print the value's description (the letter tells translators and `msgfmt
/// --check` what the value is).
public struct Catalog: Sendable {
    /// A translation's lookup: the context if any, the text, its plural form and the count
    /// (nil plural: 1). Returns the text itself (or its plural) when there is no translation.
    public typealias Lookup =
        @Sendable (_ context: String?, _ text: String, _ plural: String?, _ count: UInt) -> String

    private let lookup: Lookup

    public init(lookup: @escaping Lookup) {
        self.lookup = lookup
    }

    /// The texts as written in the sources (English, whose plural is for every count but 1).
    public static let source = Catalog { _, text, plural, count in
        plural.map { count == 1 ? text : $0 } ?? text
    }

    /// restd's installed catalog for the language `Localization.start()` found; the source texts
    /// before it ran, or where there is no catalog for the language.
    public static let installed = Catalog { context, text, plural, count in
        Localization.catalog?.translation(context: context, text: text, plural: plural, count: count)
            ?? Catalog.source.lookup(context, text, plural, count)
    }

    /// The texts of `catalog`, falling back to the sources' where it has none.
    public init(_ catalog: MessageCatalog) {
        self.init { context, text, plural, count in
            catalog.translation(context: context, text: text, plural: plural, count: count)
                ?? Catalog.source.lookup(context, text, plural, count)
        }
    }

    /// A text, with its values put in for `%1$s`, `%2$d`…: `localized("Next: %1$s", name)`.
    public func localized(_ text: StaticString, _ values: any CustomStringConvertible...) -> String {
        self.text(text, values)
    }

    /// A text whose words follow a count, in the language's plural form (the catalog's
    /// Plural-Forms): `localizedPlural("%1$d set", "%1$d sets", count: n, n)`.
    public func localizedPlural(
        _ singular: StaticString, _ plural: StaticString, count: Int, _ values: any CustomStringConvertible...
    ) -> String {
        self.text(singular, plural: plural, count: count, values)
    }

    /// A short text that needs its context to be translated: `localizedInContext("minutes", "min")`.
    public func localizedInContext(_ context: StaticString, _ text: StaticString) -> String {
        lookup("\(context)", "\(text)", nil, 1)
    }

    func text(
        _ text: StaticString, plural: StaticString? = nil, count: Int = 1, _ values: [any CustomStringConvertible]
    ) -> String {
        let count = count < 0 ? 0 : UInt(count)
        return Catalog.fill(lookup(nil, "\(text)", plural.map { "\($0)" }, count), values)
    }

    /// `format` with `%N$s`/`%N$d` replaced by the Nth value, `%s`/`%d` by the next one and `%%`
    /// by `%`. A directive naming a value that is not there is left as it is.
    static func fill(_ format: String, _ values: [any CustomStringConvertible]) -> String {
        guard format.contains("%") else { return format }
        var result = ""
        var next = 0
        var index = format.startIndex
        while index < format.endIndex {
            let character = format[index]
            index = format.index(after: index)
            guard character == "%", index < format.endIndex else {
                result.append(character)
                continue
            }
            if format[index] == "%" {
                result.append("%")
                index = format.index(after: index)
                continue
            }
            var cursor = index
            var digits = ""
            while cursor < format.endIndex, let digit = format[cursor].wholeNumberValue, format[cursor].isASCII {
                digits.append(String(digit))
                cursor = format.index(after: cursor)
            }
            var position: Int?
            if !digits.isEmpty {
                guard cursor < format.endIndex, format[cursor] == "$" else {
                    result.append(character)
                    continue
                }
                position = Int(digits).map { $0 - 1 }
                cursor = format.index(after: cursor)
            }
            guard cursor < format.endIndex, format[cursor] == "s" || format[cursor] == "d" else {
                result.append(character)
                continue
            }
            let chosen = position ?? next
            guard chosen >= 0, chosen < values.count else {
                result.append(character)
                continue
            }
            if position == nil { next += 1 }
            result += values[chosen].description
            index = format.index(after: cursor)
        }
        return result
    }
}

// The installed catalog's texts, for code that writes for the person running it (restctl).

/// `Catalog.installed.localized`: a text in the reader's language.
public func localized(_ text: StaticString, _ values: any CustomStringConvertible...) -> String {
    Catalog.installed.text(text, values)
}

/// `Catalog.installed.localizedPlural`: a text whose words follow a count.
public func localizedPlural(
    _ singular: StaticString, _ plural: StaticString, count: Int, _ values: any CustomStringConvertible...
) -> String {
    Catalog.installed.text(singular, plural: plural, count: count, values)
}

/// `Catalog.installed.localizedInContext`: a short text with its context.
public func localizedInContext(_ context: StaticString, _ text: StaticString) -> String {
    Catalog.installed.localizedInContext(context, text)
}
