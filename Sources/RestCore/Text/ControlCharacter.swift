extension Unicode.Scalar {
    /// Whether this is a control character, general category Cc: U+0000–U+001F and
    /// U+007F–U+009F. Unicode's stability policy fixes that category, so the ranges are exact;
    /// asking the scalar's properties costs a table look-up per character, and restd checks every
    /// stored label when it starts (thousands of timers).
    public var isControlCharacter: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }
}
