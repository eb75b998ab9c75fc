/// Fixed journal `MESSAGE_ID`s of the entries people and tools look for. Generated once, never
/// to be changed: `journalctl --user MESSAGE_ID=<id>` finds every such entry across versions.
public enum LogMessageID {
    /// A timer ran out (`TIMER_ID` names it).
    public static let timerExpired = "31539ef581fd4385a8910d77db46c94c"
    /// The state file could not be read and was moved aside; restd started empty.
    public static let stateRecovered = "97b3b6b15a0345279aa2d762546f1e51"

    /// The metadata key that carries a message id (it becomes the `MESSAGE_ID` field).
    public static let metadataKey = "message_id"
}
