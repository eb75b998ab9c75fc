import Foundation

/// A recording cut into 10 ms windows, each with its loudness (RMS, in dB below full scale), and
/// what a listener would make of it: when a sound starts (onsets), how long the pauses between
/// sounds are, whether it is quiet after a moment. Times are seconds from the recording's start.
public struct Loudness: Sendable {
    public static let windowSeconds = 0.010
    /// Quieter than this (3 steps of 16-bit sound) is silence: a null sink's monitor is digital
    /// zero between sounds, so anything above it was played — including the soft lead-in and
    /// tails of the theme's sounds, which a threshold nearer speech (−45 dBFS) would cut off.
    public static let silenceDBFS = -80.0

    /// dBFS of each window (-120 for digital silence).
    public let windows: [Double]

    public init(samples: [Int16], rate: Int) {
        let size = max(1, Int(Double(rate) * Self.windowSeconds))
        var windows: [Double] = []
        windows.reserveCapacity(samples.count / size)
        var start = 0
        while start + size <= samples.count {
            var sum = 0.0
            for sample in samples[start..<start + size] {
                let value = Double(sample) / 32768
                sum += value * value
            }
            let rms = (sum / Double(size)).squareRoot()
            windows.append(rms > 0 ? max(-120, 20 * log10(rms)) : -120)
            start += size
        }
        self.windows = windows
    }

    public var duration: Double { Double(windows.count) * Self.windowSeconds }

    public func isLoud(_ window: Int) -> Bool { windows[window] > Self.silenceDBFS }

    /// Where sounds start: a loud window after at least `quietBefore` seconds of silence (or at the
    /// start). A sound with short dips inside counts once.
    public func onsets(quietBefore: Double = 0.15) -> [Double] {
        let needed = Int((quietBefore / Self.windowSeconds).rounded())
        var onsets: [Double] = []
        var quietRun = needed
        for index in windows.indices {
            if isLoud(index) {
                if quietRun >= needed { onsets.append(Double(index) * Self.windowSeconds) }
                quietRun = 0
            } else {
                quietRun += 1
            }
        }
        return onsets
    }

    /// The stretches of sound, merged across dips shorter than `quietBefore`: (start, end) in seconds.
    public func sounds(quietBefore: Double = 0.15) -> [(start: Double, end: Double)] {
        let needed = Int((quietBefore / Self.windowSeconds).rounded())
        var spans: [(start: Double, end: Double)] = []
        var current: (start: Int, end: Int)?
        for index in windows.indices where isLoud(index) {
            if let open = current, index - open.end - 1 < needed {
                current = (open.start, index)
            } else {
                if let open = current {
                    spans.append((Double(open.start) * Self.windowSeconds, Double(open.end + 1) * Self.windowSeconds))
                }
                current = (index, index)
            }
        }
        if let open = current {
            spans.append((Double(open.start) * Self.windowSeconds, Double(open.end + 1) * Self.windowSeconds))
        }
        return spans
    }

    /// The longest silence between `from` and `to` (seconds), counting only whole windows inside.
    public func longestSilence(from: Double, to: Double) -> Double {
        let first = max(0, Int((from / Self.windowSeconds).rounded(.up)))
        let last = min(windows.count, Int((to / Self.windowSeconds).rounded(.down)))
        var longest = 0
        var run = 0
        for index in first..<max(first, last) {
            run = isLoud(index) ? 0 : run + 1
            longest = max(longest, run)
        }
        return Double(longest) * Self.windowSeconds
    }

    /// The end of the last loud window (seconds), nil when all is silent.
    public var lastSound: Double? {
        windows.lastIndex(where: { $0 > Self.silenceDBFS }).map { Double($0 + 1) * Self.windowSeconds }
    }

    /// Whether every window from `from` on (seconds) is silent.
    public func isSilent(from: Double) -> Bool {
        let first = max(0, Int((from / Self.windowSeconds).rounded(.up)))
        return first >= windows.count || !windows[first...].contains { $0 > Self.silenceDBFS }
    }
}
