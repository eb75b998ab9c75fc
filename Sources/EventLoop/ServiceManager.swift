import CSystemd

/// Talks to the service manager through `sd_notify` (a no-op when `NOTIFY_SOCKET` is unset).
public enum ServiceManager {
    /// Sends `state` ("READY=1\nSTATUS=…"); sd_notify is not variadic, so the text is preformatted.
    public static func notify(_ state: String) {
        _ = sd_notify(0, state)
    }
}

/// The systemd journal's native protocol, through `sd_journal_sendv`.
public enum Journal {
    /// Sends one entry made of `fields` ("MESSAGE=…", "PRIORITY=6", …); returns sd_journal_sendv's
    /// result (a negative errno on failure; 0 also when no journald listens).
    public static func send(_ fields: [(name: String, value: String)]) -> Int32 {
        // All fields in one buffer; the iovecs point into it while it is pinned.
        var buffer: [UInt8] = []
        var ranges: [(offset: Int, count: Int)] = []
        for field in fields {
            let start = buffer.count
            buffer += field.name.utf8
            buffer.append(UInt8(ascii: "="))
            buffer += field.value.utf8
            ranges.append((start, buffer.count - start))
        }
        return buffer.withUnsafeMutableBytes { bytes in
            let vectors = ranges.map { range in
                iovec(iov_base: bytes.baseAddress! + range.offset, iov_len: range.count)
            }
            return vectors.withUnsafeBufferPointer { sd_journal_sendv($0.baseAddress, Int32($0.count)) }
        }
    }
}
