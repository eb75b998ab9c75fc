import Localization
import RestCore

/// A set read from an export, as restd's history will hold it.
public struct ImportedSet: Sendable, Equatable {
    public var source: ImportFormat
    /// The workout's start as the file writes it (a date alone where the file has no time of day).
    public var workoutStart: String
    /// Strong's workout name, Hevy's title; FitNotes' day has none ("").
    public var workoutName: String
    /// The exercise as the app wrote it (trimmed: `ExerciseName.display`).
    public var exercise: String
    /// FitNotes' Category, where the file has one.
    public var category: String?
    /// The set's place among the sets of its exercise in its workout, from 1, in file order.
    public var order: Int
    /// When it was done (CLOCK_REALTIME µs): its time of day where the file has one, else spread
    /// through the workout in order (`ImportReader`).
    public var atUSec: USec
    public var reps: UInt32?
    /// Kilograms, kept to 0.01 kg; nil where the file gives no weight (or 0, as the apps write
    /// a bodyweight set).
    public var weightKg: Double?
    /// A warm-up set: never a failed set or a record.
    public var warmup: Bool
    /// Hevy's failure sets, Strong's F: sets whose last rep did not go up.
    public var failed: Bool
    /// The file's line it was read from.
    public var line: Int

    /// What makes it the same set when the file is imported again: the app, the workout's
    /// start as written, the exercise as written and the set's order within the workout and
    /// exercise (`ImportRow.key`, as restd keeps it).
    public var key: String {
        ImportRow.key(
            source: source.rawValue, workoutStart: workoutStart, exercise: exercise, order: UInt32(clamping: order))
    }
}

/// A line that could not be read, and why.
public struct ImportProblem: Sendable, Equatable {
    public var line: Int
    public var reason: String

    /// `FILE:LINE: why`, as compilers and plan files write it.
    public func text(file: String) -> String { file + ":" + String(line) + ": " + reason }
}

/// What a file held, counted as it is read.
public struct ImportSummary: Sendable, Equatable {
    /// Sets read, warm-ups included.
    public var sets = 0
    public var warmups = 0
    public var workouts = 0
    /// Rows with a distance or a time and no reps: cardio, which restd does not keep.
    public var cardioRows = 0
    /// Strong's "Rest Timer" rows: rests, not sets (restd keeps only the rests it saw).
    public var restTimerRows = 0
    /// Rows with neither reps nor weight nor anything else.
    public var emptyRows = 0
    public var unreadableLines = 0
    public var earliestUSec: USec?
    public var latestUSec: USec?

    public init() {}
}

/// Why a whole file cannot be imported: one sentence each.
public enum ImportFailure: Error, Equatable {
    case empty
    case binary
    /// Its first line is no known export's header (`expected`: the format asked for with --from).
    case unknownFormat(firstLine: String, expected: ImportFormat?)
    /// Its weights' unit is not in the file (Strong's comma form): --unit is needed.
    case unitNeeded(ImportFormat)

    public func message(file: String) -> String {
        switch self {
        case .empty:
            return localized("%1$s is empty; %2$s", file, ImportFormat.knownFormatsText)
        case .binary:
            return localized(
                "%1$s is not a text file (it holds binary data); %2$s", file, ImportFormat.knownFormatsText)
        case .unknownFormat(let firstLine, let expected?):
            return localized(
                "%1$s is not a %2$s export: its first line, %3$s, lacks the columns one has; %4$s", file,
                expected.appName,
                MessageText.quoted(firstLine), ImportFormat.knownFormatsText)
        case .unknownFormat(let firstLine, nil):
            return localized(
                "%1$s is none of the exports restctl knows: its first line is %2$s; %3$s", file,
                MessageText.quoted(firstLine), ImportFormat.knownFormatsText)
        case .unitNeeded(let format):
            return localized(
                "%1$s does not say whether its weights are in kg or lb (%2$s exports them in the unit set in the app): give --unit kg or --unit lb",
                file, format.appName)
        }
    }
}

/// What one chunk of a file gave: the sets of the workouts it completed, and its unreadable lines.
public struct ImportBatch: Sendable, Equatable {
    public var sets: [ImportedSet] = []
    public var problems: [ImportProblem] = []
}
