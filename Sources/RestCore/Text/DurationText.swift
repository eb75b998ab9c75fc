import Localization

/// Renders durations for sentences, in the unit words and decimal separator of the catalog they
/// are said in: "1 min 30 s", "24 h", "1.5 s", "250 ms", "12 µs" ("1 Min. 30 s", "24 Std.", "1,5 s"
/// in German).
public enum DurationText {
    /// Describes `usec` with the largest units that fit, dropping zero parts.
    public static func describe(_ usec: USec, catalog: Catalog = .installed) -> String {
        inWords(inSymbols(usec), catalog: catalog)
    }

    /// `describe` in the sources' symbols, with a full stop: "1 h 5 min 1.5 s".
    private static func inSymbols(_ usec: USec) -> String {
        let second: USec = 1_000_000
        if usec == 0 { return "0 s" }
        if usec < 1_000 { return "\(usec) µs" }
        if usec < second {
            let fraction = usec % 1_000
            return fraction == 0 ? "\(usec / 1_000) ms" : "\(usec / 1_000).\(decimals(fraction, digits: 3)) ms"
        }
        let hours = usec / (3_600 * second)
        let minutes = usec / (60 * second) % 60
        let seconds = usec / second % 60
        let fraction = usec % second
        var parts: [String] = []
        if hours > 0 { parts.append("\(hours) h") }
        if minutes > 0 { parts.append("\(minutes) min") }
        if fraction > 0 {
            parts.append("\(seconds).\(decimals(fraction, digits: 6)) s")
        } else if seconds > 0 {
            parts.append("\(seconds) s")
        }
        return parts.joined(separator: " ")
    }

    /// Describes `usec` the way a person reads a duration in a sentence: whole seconds below an
    /// hour ("59 min 59 s"), whole minutes from an hour on ("23 h 5 min"), and milliseconds only
    /// below a second. Rounded to the nearest unit, or down with `roundingDown` (for "at most").
    public static func readable(_ usec: USec, roundingDown: Bool = false, catalog: Catalog = .installed) -> String {
        let second: USec = 1_000_000
        if usec < second { return describe(usec < 1_000 ? usec : usec - usec % 1_000, catalog: catalog) }
        let unit = usec >= 3_600 * second ? 60 * second : second
        let down = usec - usec % unit
        let rounded = roundingDown || usec % unit < unit / 2 ? down : down.addingSaturated(unit)
        // Rounding up may reach the next hour (59 min 59.6 s is 1 h): drop the seconds then too.
        return describe(rounded >= 3_600 * second ? rounded - rounded % (60 * second) : rounded, catalog: catalog)
    }

    /// Describes a signed amount with its sign: "+30 s", "-1 min".
    public static func describe(signed usec: Int64, catalog: Catalog = .installed) -> String {
        (usec < 0 ? "-" : "+") + describe(usec.magnitude, catalog: catalog)
    }

    /// "1 h 5 min 1.5 s" in `catalog`'s unit words and decimal separator; ms and µs are symbols
    /// in every language.
    private static func inWords(_ text: String, catalog: Catalog) -> String {
        text.split(separator: " ").map { word in
            switch word {
            case "h": catalog.localizedInContext("unit of hours", "h")
            case "min": catalog.localizedInContext("unit of minutes", "min")
            case "s": catalog.localizedInContext("unit of seconds", "s")
            default: MessageText.decimal(String(word), catalog: catalog)
            }
        }.joined(separator: " ")
    }

    // A fraction as decimals with trailing zeros removed: (500_000, 6 digits) → "5".
    private static func decimals(_ fraction: USec, digits count: Int) -> String {
        var digits = String(fraction)
        digits = String(repeating: "0", count: count - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return digits
    }
}
