import Localization
import RestCore

/// The apps whose CSV exports `restctl import` reads, each known by its header.
public enum ImportFormat: String, Sendable, CaseIterable {
    case strong
    case hevy
    case fitnotes

    /// The app's name as people write it.
    public var appName: String {
        switch self {
        case .strong: "Strong"
        case .hevy: "Hevy"
        case .fitnotes: "FitNotes"
        }
    }

    /// "Strong, Hevy and FitNotes": the end of every sentence about a file of another format.
    public static var knownFormatsText: String {
        localized("restctl import reads the CSV exports of Strong, Hevy and FitNotes")
    }
}

/// Where each field a row is read from sits in a file's header, and in what unit its weights
/// are. Columns are found by name, so their order and any other column do not matter.
struct ImportColumns {
    let format: ImportFormat
    /// The workout's start: Strong's Date, Hevy's start_time, FitNotes' Date (a day alone).
    let start: Int
    /// Hevy's end_time.
    var end: Int?
    /// Strong's Duration (or Workout Duration).
    var duration: Int?
    /// Strong's Workout Name, Hevy's title.
    var workoutName: Int?
    let exercise: Int
    /// FitNotes' Category.
    var category: Int?
    /// Strong's Set Order ("Rest Timer" rows are no sets; W, D, F mark a warm-up, a drop set, a
    /// failure), Hevy's set_type (warmup, normal, failure, dropset).
    var setKind: Int?
    var weight: Int?
    /// A Weight Unit column (kg, kgs, lbs), read per row.
    var weightUnitColumn: Int?
    /// The unit the header names (weight_kg, weight_lbs, Weight (kg)), nil when it names none.
    var headerUnit: WeightUnit?
    let reps: Int
    /// Distance and time columns: a row with either and no reps is cardio.
    var cardio: [Int] = []

    /// The columns of `header` if it is one of the known exports (`format`, or any when nil).
    static func find(in header: [String], format wanted: ImportFormat?) -> ImportColumns? {
        let names = header.map { $0.trimmingSpaces.lowercased() }
        func column(_ candidates: String...) -> Int? {
            for candidate in candidates { if let index = names.firstIndex(of: candidate) { return index } }
            return nil
        }
        let cardio = names.indices.filter { index in
            let name = names[index]
            return name.hasPrefix("distance") && !name.hasSuffix("unit") || name == "seconds" || name == "time"
                || name == "duration_seconds"
        }
        func weightColumn(_ prefix: String, separator: String) -> (Int, WeightUnit?)? {
            if let plain = column(prefix) { return (plain, nil) }
            for unit in ["kg", "kgs", "lb", "lbs"] {
                if let index = column(prefix + separator + unit + (separator == " (" ? ")" : "")) {
                    return (index, WeightUnit(written: unit))
                }
            }
            return nil
        }
        for format in wanted.map({ [$0] }) ?? ImportFormat.allCases {
            switch format {
            case .strong:
                guard let date = column("date"), let exercise = column("exercise name"),
                    let order = column("set order"), let reps = column("reps")
                else { continue }
                var columns = ImportColumns(format: .strong, start: date, exercise: exercise, reps: reps)
                columns.duration = column("duration", "workout duration")
                columns.workoutName = column("workout name")
                columns.setKind = order
                (columns.weight, columns.headerUnit) = weightColumn("weight", separator: " (") ?? (nil, nil)
                columns.weightUnitColumn = column("weight unit")
                columns.cardio = cardio
                return columns
            case .hevy:
                guard let start = column("start_time"), let exercise = column("exercise_title"),
                    let reps = column("reps")
                else { continue }
                var columns = ImportColumns(format: .hevy, start: start, exercise: exercise, reps: reps)
                columns.end = column("end_time")
                columns.workoutName = column("title")
                columns.setKind = column("set_type")
                (columns.weight, columns.headerUnit) = weightColumn("weight", separator: "_") ?? (nil, nil)
                columns.cardio = cardio
                return columns
            case .fitnotes:
                guard let date = column("date"), let exercise = column("exercise"), let reps = column("reps") else {
                    continue
                }
                var columns = ImportColumns(format: .fitnotes, start: date, exercise: exercise, reps: reps)
                columns.category = column("category")
                (columns.weight, columns.headerUnit) = weightColumn("weight", separator: " (") ?? (nil, nil)
                columns.weightUnitColumn = column("weight unit")
                columns.cardio = cardio
                return columns
            }
        }
        return nil
    }
}

extension StringProtocol {
    /// Without the spaces and tabs around it (fields of hand-edited files have them).
    var trimmingSpaces: Substring {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" || first == "\u{FEFF}" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
