/// How many terminal columns text takes: what lines up columns of names in `history` and
/// `stats`, and what fits a line to the terminal. A character counts by its first scalar: wide
/// East Asian characters and emoji shown as pictures take two columns, combining marks and
/// format characters none, everything else one (as wcwidth(3) counts, without the C library's
/// dependence on the locale).
public enum DisplayWidth {
    public static func of(_ text: String) -> Int {
        // Latin, as most names and every number are (and the "×" of "5×100 kg"): a column per
        // scalar, none for a control one — what the per-character rules give, without asking
        // Unicode's tables (a week of history is thousands of cells). Below U+0300 no scalar
        // joins the one before it into a character, none is wide or an emoji picture by itself,
        // and only the C1 controls and the soft hyphen take no column.
        var latinWidth = 0
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x80 {
                latinWidth += columns(ascii: UInt8(value))
            } else if value >= 0xA0, value < 0x300, value != 0xAD {
                latinWidth += 1
            } else {
                return text.reduce(0) { $0 + of($1) }
            }
        }
        return latinWidth
    }

    public static func of(_ character: Character) -> Int {
        // An ASCII character alone (the letters and digits around a "·" in a line of history,
        // counted character by character): one column if printable, without the tables.
        if character.utf8.count == 1, let byte = character.utf8.first, byte < 0x80 { return columns(ascii: byte) }
        return columnsByTables(character)
    }

    /// An ASCII byte's columns: one if printable, none for a control character.
    private static func columns(ascii byte: UInt8) -> Int { byte >= 0x20 && byte != 0x7F ? 1 : 0 }

    /// A character's columns by its first scalar's Unicode properties.
    static func columnsByTables(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        let properties = first.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        // An emoji picture: presented as one by default, or asked for with VS16 (U+FE0F).
        if properties.isEmojiPresentation || character.unicodeScalars.contains("\u{FE0F}") { return 2 }
        return isWide(first.value) ? 2 : 1
    }

    /// East Asian Wide and Fullwidth ranges (Unicode's EastAsianWidth.txt, the blocks that matter).
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// `text` followed by spaces up to `width` columns.
    public static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - of(text)))
    }

    /// Spaces up to `width` columns, then `text`.
    public static func padded(leading text: String, to width: Int) -> String {
        String(repeating: " ", count: max(0, width - of(text))) + text
    }

    /// The longest start of `text` that takes at most `width` columns.
    public static func prefix(_ text: String, width: Int) -> String {
        var used = 0
        var result = ""
        for character in text {
            let next = of(character)
            guard used + next <= width else { break }
            used += next
            result.append(character)
        }
        return result
    }
}
