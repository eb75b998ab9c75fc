/// What a rest's heart rate was, sample by sample: what `RecoveryMetrics` is computed from.
public struct RecoverySeries: Sendable, Equatable {
    /// One sample, at its time.
    public struct Point: Sendable, Equatable {
        public var atUSec: USec
        /// The smoothed heart rate after it; nil for a sample without one (contact lost).
        public var smoothedBPM: Double?

        public init(atUSec: USec, smoothedBPM: Double?) {
            self.atUSec = atUSec
            self.smoothedBPM = smoothedBPM
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

    /// Appends what the sample at `atUSec` gave; times must not go backwards.
    public mutating func record(atUSec: USec, _ reading: HeartSignal.Reading) {
        points.append(Point(atUSec: atUSec, smoothedBPM: reading.smoothedBPM))
        beats += reading.beats.map { Beat(atUSec: atUSec, beat: $0) }
    }
}
