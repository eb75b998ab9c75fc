/// What a rest's heart rate was, valid sample by valid sample, from the seconds before its start
/// (the source's last 5 s, which say what the heart rate was as the set ended) to its end: what
/// `RecoveryMetrics` is computed from.
public struct RecoverySeries: Sendable, Equatable {
    /// One valid sample, at its time.
    public struct Point: Sendable, Equatable {
        public var atUSec: USec
        /// The smoothed heart rate after it.
        public var smoothedBPM: Double
        /// Whether that value is confirmed (`HeartSignal.confirmingSamples`).
        public var confirmed: Bool

        public init(atUSec: USec, smoothedBPM: Double, confirmed: Bool = true) {
            self.atUSec = atUSec
            self.smoothedBPM = smoothedBPM
            self.confirmed = confirmed
        }
    }

    /// One judged RR interval, at the time of the sample that carried it.
    public struct Beat: Sendable, Equatable {
        public var atUSec: USec
        public var beat: HeartSignal.Beat

        public init(atUSec: USec, beat: HeartSignal.Beat) {
            self.atUSec = atUSec
            self.beat = beat
        }
    }

    /// In time order.
    public private(set) var points: [Point] = []
    /// Every judged beat, in order: a beat's predecessor in the stream is the one before it here.
    public private(set) var beats: [Beat] = []

    public init() {}

    /// Appends what the valid sample at `atUSec` gave; times must not go backwards.
    public mutating func record(atUSec: USec, _ reading: HeartSignal.Reading) {
        points.append(Point(atUSec: atUSec, smoothedBPM: reading.smoothedBPM, confirmed: reading.confirmed))
        beats += reading.beats.map { Beat(atUSec: atUSec, beat: $0) }
    }
}
