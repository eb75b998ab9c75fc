extension TimerSnapshot {
    /// A snapshot from plain values: for tests and for callers that did not read it from the bus.
    public init(
        id: String, label: String = "", next: String = "", state: String,
        durationUSec: UInt64, startedAtUSec: UInt64 = 0, endsAtUSec: UInt64 = 0,
        remainingUSec: UInt64 = 0, expiredAtUSec: UInt64 = 0, notify: Bool = true, warnUSec: UInt64 = 0,
        restSource: String = "", untilRecovered: Bool = false, endReason: String = "", recoveredBPM: UInt32 = 0,
        sound: Bool = true, ringing: Bool = false
    ) {
        self.sound = sound
        self.ringing = ringing
        self.id = id
        self.label = label
        self.next = next
        self.state = state
        self.durationUSec = durationUSec
        self.startedAtUSec = startedAtUSec
        self.endsAtUSec = endsAtUSec
        self.remainingUSec = remainingUSec
        self.expiredAtUSec = expiredAtUSec
        self.notify = notify
        self.warnUSec = warnUSec
        self.restSource = restSource
        self.untilRecovered = untilRecovered
        self.endReason = endReason
        self.recoveredBPM = recoveredBPM
    }
}
