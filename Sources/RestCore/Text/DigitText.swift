/// Short ASCII text of numbers and separators ("2026-11-23 18:02", "1:30"), written byte by byte
/// into the string's own storage: a week of history is thousands of these, and joining a String
/// per piece costs several times the digits themselves.
public struct DigitText {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private var count = 0

    private init(_ buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

    /// The text `write` writes, at most `capacity` bytes (more stops the program).
    public static func make(capacity: Int, _ write: (inout DigitText) -> Void) -> String {
        String(unsafeUninitializedCapacity: capacity) { buffer in
            var text = DigitText(buffer)
            write(&text)
            return text.count
        }
    }

    /// One ASCII character (a separator).
    public mutating func character(_ ascii: Unicode.Scalar) {
        precondition(count < buffer.count, "DigitText: more than its capacity")
        buffer[count] = UInt8(ascii: ascii)
        count += 1
    }

    /// ASCII text (a word between the numbers).
    public mutating func text(_ ascii: StaticString) {
        precondition(
            ascii.isASCII && ascii.utf8CodeUnitCount <= buffer.count - count, "DigitText: not ASCII, or too long")
        ascii.withUTF8Buffer { bytes in
            for byte in bytes {
                buffer[count] = byte
                count += 1
            }
        }
    }

    /// A duration as a clock shows it, whole seconds: `m:ss` below one hour, `h:mm:ss` from one
    /// hour on (0:05, 1:30, 59:59, 1:00:00). At most 30 bytes.
    public mutating func clock(seconds: UInt64) {
        let hours = seconds / 3_600
        if hours > 0 {
            number(hours)
            character(":")
            number(seconds / 60 % 60, minimumDigits: 2)
        } else {
            number(seconds / 60)
        }
        character(":")
        number(seconds % 60, minimumDigits: 2)
    }

    /// The same as a string: the one clock of restctl's lines and of the notifications.
    public static func clock(seconds: UInt64) -> String {
        make(capacity: 32) { $0.clock(seconds: seconds) }
    }

    /// `value` in decimal, zero-padded to at least `minimumDigits`.
    public mutating func number(_ value: UInt64, minimumDigits: Int = 1) {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let width = max(digits, minimumDigits)
        // The buffer is the string's own storage: a write past it would not be caught.
        precondition(width <= buffer.count - count, "DigitText: more than its capacity")
        var remaining = value
        for index in stride(from: count + width - 1, through: count, by: -1) {
            buffer[index] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
        }
        count += width
    }
}
