/// What a media widget shows of the live activity: the workout as the album, heart rate and
/// progress as the comment ("♥ 142 bpm · 3/5").
public struct LiveSummary: Equatable, Sendable {
    public var album: String?
    public var comment: String?

    public init(album: String? = nil, comment: String? = nil) {
        self.album = album
        self.comment = comment
    }

    public init(fields: [String: LiveValue]) {
        if case .string(let workout)? = fields[LiveKey.workout], !workout.isEmpty { album = workout }
        var parts: [String] = []
        if case .integer(let bpm)? = fields[LiveKey.heartRate] { parts.append("♥ \(bpm) bpm") }
        if let progress = LiveProgress(fields: fields) { parts.append("\(progress.done)/\(progress.total)") }
        comment = parts.isEmpty ? nil : parts.joined(separator: " · ")
    }
}
