import RestCore

/// A rule the test knows to be valid.
func rule(
    _ target: RecoveryTarget = .standard, planned: USec, minimum: USec? = nil, hold: USec = 10 * second
) -> RecoveryRule {
    do {
        return try RecoveryRule(target: target, plannedUSec: planned, minimumUSec: minimum, holdUSec: hold)
    } catch {
        fatalError("test rule is invalid: \(error)")
    }
}
