/// Which Bluetooth heart-rate strap restd reads (`[heart_rate] bluetooth` in config.toml).
public enum StrapChoice: Sendable, Equatable, CustomStringConvertible {
    /// The first connected strap; with two, the one that connected first.
    case auto
    /// No Bluetooth at all: restd does not even connect to the system bus.
    case off
    /// Only the strap with this address (upper case, `AA:BB:CC:DD:EE:FF`).
    case address(String)

    /// Reads `"auto"`, `"off"` or a Bluetooth address in either case; nil for anything else.
    public init?(_ text: String) {
        switch text {
        case "auto": self = .auto
        case "off": self = .off
        default:
            guard let address = Self.normalizedAddress(text) else { return nil }
            self = .address(address)
        }
    }

    /// `aa:bb:cc:dd:ee:ff` → `AA:BB:CC:DD:EE:FF`; nil unless six pairs of hex digits split by colons.
    public static func normalizedAddress(_ text: String) -> String? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6, parts.allSatisfy({ $0.utf8.count == 2 && $0.allSatisfy(\.isHexDigit) }) else {
            return nil
        }
        return text.uppercased()
    }

    /// As written in config.toml.
    public var description: String {
        switch self {
        case .auto: "auto"
        case .off: "off"
        case .address(let address): address
        }
    }
}
