import Localization
import RestCore

/// Which rule chose a rest, for people: what `rest_source` (`RestChoice.sourceText`) stands for,
/// as `restctl set` says it after the timer ("rest 2:00 from the rest last used for this exercise").
public enum RestRuleText {
    /// The rule in words; nil for a source this restctl does not know (a newer restd's).
    /// `categoryRestPassedOver`: for `last_used`, the exercise's category rest when it has one of
    /// another length, named as the rule the rest last used won over.
    public static func explanation(ofSource text: String, categoryRestPassedOver: USec? = nil) -> String? {
        let extra = text.hasSuffix(RestChoice.failedExtraSuffix)
        let name = extra ? String(text.dropLast(RestChoice.failedExtraSuffix.count)) : text
        guard let source = RestSource(rawValue: name) else { return nil }
        // Option and key names (--rest, default_duration, failed_rest) are what people type: never translated.
        let rule =
            switch source {
            case .given: "--rest"
            case .exercise: localized("the exercise's rest in config.toml")
            case .lastUsed:
                categoryRestPassedOver.map {
                    localized(
                        "the rest last used for this exercise, which wins over its category's %1$s",
                        DigitText.clock(seconds: $0 / 1_000_000))
                } ?? localized("the rest last used for this exercise")
            case .category: localized("its category's rest in config.toml")
            case .default: "default_duration"
            case .failedRest: localized("the exercise's failed_rest")
            case .plan: localized("the workout plan")
            case .planFailedRest: localized("the workout plan's failed_rest")
            case .none: localized("no rest follows")
            }
        return extra ? localized("%1$s, plus failed_extra after a failed set", rule) : rule
    }
}
