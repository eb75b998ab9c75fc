import Localization
import RestCore

/// Reads an export of Strong, Hevy or FitNotes chunk by chunk, in bounded memory: a chunk in,
/// the sets of the workouts it completed out, with every line it could not read. Pure: the
/// bytes come from the caller, and local dates become instants through `localInstant`.
///
/// A workout's rows stay together in these exports: its sets are held until the next workout
/// begins, then given their times: a time of day where the file has one, else spread through
/// the workout (Strong's Duration, Hevy's end_time), the k-th of n sets at k/(n+1) of it; a
/// workout of unknown length, `setSpacingUSec` apart from its start; FitNotes' days, which have
/// no time of day, from `dayStartHour`.
public struct ImportReader {
    /// Where sets go in a workout whose length is not known.
    public static let setSpacingUSec: USec = 2 * 60 * 1_000_000
    /// The local hour a FitNotes day's first set is placed after.
    public static let dayStartHour = 12
    /// Sets held for one workout; a row beyond is refused (no one does that many).
    public static let maxSetsPerWorkout = 5_000
    /// The first line is read whole before anything else: a header longer is not one.
    static let maxHeaderBytes = 64 * 1024

    public let requestedFormat: ImportFormat?
    public let unit: WeightUnit?
    private let localInstant: (LocalCalendar.Parts) -> USec?

    public private(set) var summary = ImportSummary()
    /// The format, once the header is read.
    public var format: ImportFormat? { columns?.format }

    private var columns: ImportColumns?
    private var header: [UInt8] = []
    private var splitter: CSVSplitter?
    private var workout: PendingWorkout?
    /// The workouts already given out, so that one whose rows come apart is seen.
    private var finishedWorkouts: Set<String> = []

    /// `format` nil: found from the header. `unit`: for a file that does not say its unit.
    public init(
        format: ImportFormat? = nil, unit: WeightUnit? = nil,
        localInstant: @escaping (LocalCalendar.Parts) -> USec? = LocalCalendar.instant
    ) {
        self.requestedFormat = format
        self.unit = unit
        self.localInstant = localInstant
    }

    public mutating func read(_ chunk: some Collection<UInt8>) throws(ImportFailure) -> ImportBatch {
        var batch = ImportBatch()
        var outputs: [CSVSplitter.Output] = []
        if splitter == nil {
            guard let newline = chunk.firstIndex(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") })
            else {
                header.append(contentsOf: chunk)
                if header.contains(0) { throw .binary }
                if header.count > Self.maxHeaderBytes {
                    throw .unknownFormat(firstLine: String(decoding: header.prefix(80), as: UTF8.self), expected: nil)
                }
                return batch
            }
            header.append(contentsOf: chunk[..<newline])
            try startSplitter()
            splitter!.split(header, into: &outputs)
            header = []
            splitter!.split(chunk[newline...], into: &outputs)
        } else {
            splitter!.split(chunk, into: &outputs)
        }
        try take(outputs, into: &batch)
        return batch
    }

    /// The end of the file: the last workout's sets.
    public mutating func finish() throws(ImportFailure) -> ImportBatch {
        var batch = ImportBatch()
        var outputs: [CSVSplitter.Output] = []
        if splitter == nil {
            try startSplitter()
            splitter!.split(header, into: &outputs)
        }
        splitter!.finish(into: &outputs)
        try take(outputs, into: &batch)
        if columns == nil { throw .empty }
        finishWorkout(into: &batch)
        return batch
    }

    /// The header line is whole: the delimiter is the one it uses most (Strong's older exports
    /// separate with semicolons).
    private mutating func startSplitter() throws(ImportFailure) {
        if header.starts(with: [0xEF, 0xBB, 0xBF]) { header.removeFirst(3) }
        if header.contains(0) { throw .binary }
        let semicolons = header.count { $0 == UInt8(ascii: ";") }
        let commas = header.count { $0 == UInt8(ascii: ",") }
        splitter = CSVSplitter(delimiter: semicolons > commas ? UInt8(ascii: ";") : UInt8(ascii: ","))
    }

    private mutating func take(_ outputs: [CSVSplitter.Output], into batch: inout ImportBatch) throws(ImportFailure) {
        for output in outputs {
            switch output {
            case .unreadable(let why, let line):
                guard columns != nil else { throw .binary }
                problem(why, line: line, into: &batch)
            case .record(let fields, let line):
                guard let columns else {
                    // Lines of spaces before the header are no header.
                    if !fields.allSatisfy({ $0.trimmingSpaces.isEmpty }) { try readHeader(fields) }
                    continue
                }
                do throws(RowProblem) {
                    try readRow(fields, line: line, columns: columns, into: &batch)
                } catch {
                    problem(error.reason, line: line, into: &batch)
                }
            }
        }
    }

    private mutating func readHeader(_ fields: [String]) throws(ImportFailure) {
        guard let found = ImportColumns.find(in: fields, format: requestedFormat) else {
            let separator = splitter.map { String(UnicodeScalar($0.delimiter)) } ?? ","
            throw .unknownFormat(firstLine: fields.joined(separator: separator), expected: requestedFormat)
        }
        if found.weight != nil, found.headerUnit == nil, found.weightUnitColumn == nil, unit == nil {
            throw .unitNeeded(found.format)
        }
        columns = found
    }

    private mutating func problem(_ reason: String, line: Int, into batch: inout ImportBatch) {
        summary.unreadableLines += 1
        batch.problems.append(ImportProblem(line: line, reason: reason))
    }

    private struct RowProblem: Error {
        var reason: String
    }

    private mutating func readRow(
        _ fields: [String], line: Int, columns: ImportColumns, into batch: inout ImportBatch
    ) throws(RowProblem) {
        func field(_ index: Int?) -> Substring {
            index.flatMap { $0 < fields.count ? fields[$0].trimmingSpaces : nil } ?? ""
        }
        let decimalComma = splitter?.delimiter == UInt8(ascii: ";")
        func number(_ index: Int?, _ name: String) throws(RowProblem) -> PlainDecimal? {
            let text = field(index)
            guard !text.isEmpty else { return nil }
            do {
                return try PlainDecimal(parsing: text, decimalComma: decimalComma)
            } catch {
                throw RowProblem(
                    reason: localized(
                        "%1$s %2$s is not a number such as 8 or 62.5", name, MessageText.quoted(String(text))))
            }
        }

        // What kind of set.
        var warmup = false
        var failed = false
        let kind = field(columns.setKind)
        switch columns.format {
        case .strong:
            switch kind.lowercased() {
            case "rest timer":
                summary.restTimerRows += 1
                return
            case "w": warmup = true
            case "f": failed = true
            case "d", "": break
            default:
                guard kind.allSatisfy(\.isASCIIDigit) else {
                    throw RowProblem(
                        reason: localized(
                            "Set Order %1$s is none of a number, W, D, F or Rest Timer",
                            MessageText.quoted(String(kind))))
                }
            }
        case .hevy:
            switch kind.lowercased() {
            case "warmup": warmup = true
            case "failure": failed = true
            case "normal", "dropset", "": break
            default:
                throw RowProblem(
                    reason: localized(
                        "set_type %1$s is none of warmup, normal, failure, dropset", MessageText.quoted(String(kind))))
            }
        case .fitnotes: break
        }

        // When, and in which workout.
        let startText = String(field(columns.start))
        guard let start = ImportDate(startText) else {
            throw RowProblem(
                reason: localized(
                    "%1$s is not a date such as %2$s", MessageText.quoted(startText),
                    columns.format == .hevy ? "13 Mar 2026, 15:22" : "2026-03-13 15:22:05"))
        }
        var anchor = start
        if !start.hasTime {
            anchor.local.hour = Self.dayStartHour
        }
        guard let startUSec = anchor.instant(localInstant: localInstant) else {
            throw RowProblem(reason: localized("the date %1$s does not exist", MessageText.quoted(startText)))
        }
        let workoutName = String(field(columns.workoutName))
        let workoutKey = [startText, workoutName].joined(separator: "\u{1F}")

        let exercise: ExerciseName
        do {
            exercise = try ExerciseName(parsing: String(field(columns.exercise)))
        } catch {
            throw RowProblem(reason: error.message)
        }

        if workout?.key != workoutKey {
            finishWorkout(into: &batch)
            guard !finishedWorkouts.contains(workoutKey) else {
                throw RowProblem(
                    reason: localized(
                        "this row of the workout of %1$s comes after other workouts' rows; an export keeps a workout's rows together",
                        startText))
            }
            workout = PendingWorkout(
                key: workoutKey, startText: startText, name: workoutName, startUSec: startUSec,
                hasTime: start.hasTime, lengthUSec: try workoutLength(fields, columns: columns, startUSec: startUSec))
        }
        guard workout!.sets.count < Self.maxSetsPerWorkout else {
            throw RowProblem(
                reason: localized("the workout of %1$s has more than %2$d sets", startText, Self.maxSetsPerWorkout))
        }
        // Every set row counts in the order, also one refused below, so that a line fixed later
        // keeps the others' keys.
        let order = workout!.nextOrder(of: exercise.key)

        // Reps and weight.
        let reps = try number(columns.reps, "reps")
        let repCount: UInt32?
        if let reps {
            guard let whole = reps.whole, whole <= Int64(SetInput.maxReps) else {
                throw RowProblem(
                    reason: localized(
                        "reps %1$s is not a whole number from 0 to %2$d",
                        MessageText.quoted(String(field(columns.reps))),
                        SetInput.maxReps))
            }
            repCount = UInt32(whole)
        } else {
            repCount = nil
        }
        var weightKg: Double?
        if let weight = try number(columns.weight, "weight") {
            let weightUnit: WeightUnit
            let unitText = field(columns.weightUnitColumn)
            if !unitText.isEmpty {
                guard let written = WeightUnit(written: String(unitText)) else {
                    throw RowProblem(
                        reason: localized(
                            "weight unit %1$s is none of kg, kgs, lb, lbs", MessageText.quoted(String(unitText))))
                }
                weightUnit = written
            } else if let known = columns.headerUnit ?? unit {
                weightUnit = known
            } else {
                throw RowProblem(reason: localized("the weight has no unit; give --unit kg or --unit lb"))
            }
            let hundredths = weight.hundredthsOfKg(weightUnit)
            guard hundredths <= Int64(SetInput.maxWeightKg * 100) else {
                throw RowProblem(
                    reason: localized(
                        "weight %1$s %2$s is over %3$d kg", MessageText.quoted(String(field(columns.weight))),
                        weightUnit.rawValue, Int(SetInput.maxWeightKg)))
            }
            weightKg = hundredths > 0 ? Weight.kilograms(hundredths: hundredths) : nil
        }

        // A row of cardio, or of nothing.
        if (repCount ?? 0) == 0 {
            let cardio = columns.cardio.contains { index in
                let text = field(index)
                return !text.isEmpty && text.contains { $0.isASCIIDigit && $0 != "0" }
            }
            if cardio {
                summary.cardioRows += 1
                return
            }
            if repCount == nil, weightKg == nil {
                summary.emptyRows += 1
                return
            }
        }

        let category = field(columns.category)
        workout!.sets.append(
            ImportedSet(
                source: columns.format, workoutStart: startText, workoutName: workoutName, exercise: exercise.display,
                category: category.isEmpty ? nil : String(category), order: order, atUSec: 0, reps: repCount,
                weightKg: weightKg, warmup: warmup, failed: failed && !warmup, line: line))
    }

    /// How long the workout lasted, where the file says: Strong's Duration ("1h 4m"), Hevy's end_time.
    private func workoutLength(_ fields: [String], columns: ImportColumns, startUSec: USec) throws(RowProblem) -> USec?
    {
        if let end = columns.end, end < fields.count {
            let text = fields[end].trimmingSpaces
            guard !text.isEmpty else { return nil }
            guard let date = ImportDate(text), let endUSec = date.instant(localInstant: localInstant) else {
                throw RowProblem(
                    reason: localized(
                        "end_time %1$s is not a date such as 13 Mar 2026, 16:30", MessageText.quoted(String(text))))
            }
            return endUSec > startUSec ? endUSec - startUSec : nil
        }
        if let duration = columns.duration, duration < fields.count {
            return Self.duration(fields[duration])
        }
        return nil
    }

    /// Strong's durations: "1h 4m", "45m", "50s", or a plain number of seconds; nil otherwise.
    static func duration(_ text: some StringProtocol) -> USec? {
        var seconds: USec = 0
        var value: USec?
        var any = false
        for character in text.trimmingSpaces {
            if let digit = character.wholeNumberValue, character.isASCIIDigit {
                value = (value ?? 0) * 10 + USec(digit)
                guard value! < 1_000_000 else { return nil }
                continue
            }
            let scale: USec
            switch character {
            case "h": scale = 3_600
            case "m": scale = 60
            case "s": scale = 1
            case " ": continue
            default: return nil
            }
            guard let amount = value else { return nil }
            seconds += amount * scale
            value = nil
            any = true
        }
        if let value {
            guard !any else { return nil }
            seconds = value
        }
        return seconds > 0 ? seconds * 1_000_000 : nil
    }

    /// Gives the workout held its times, and out.
    private mutating func finishWorkout(into batch: inout ImportBatch) {
        guard let held = workout else { return }
        workout = nil
        finishedWorkouts.insert(held.key)
        guard !held.sets.isEmpty else { return }
        summary.workouts += 1
        let count = USec(held.sets.count)
        for (index, var set) in held.sets.enumerated() {
            let place = USec(index + 1)
            if held.hasTime, let length = held.lengthUSec {
                set.atUSec = held.startUSec + length / (count + 1) * place
            } else {
                set.atUSec = held.startUSec + Self.setSpacingUSec * place
            }
            summary.sets += 1
            if set.warmup { summary.warmups += 1 }
            summary.earliestUSec = min(summary.earliestUSec ?? set.atUSec, set.atUSec)
            summary.latestUSec = max(summary.latestUSec ?? set.atUSec, set.atUSec)
            batch.sets.append(set)
        }
    }
}

/// A workout's sets, held until its last row is read.
private struct PendingWorkout {
    let key: String
    let startText: String
    let name: String
    let startUSec: USec
    let hasTime: Bool
    let lengthUSec: USec?
    var sets: [ImportedSet] = []
    /// Set rows so far per exercise key.
    var orders: [String: Int] = [:]

    mutating func nextOrder(of exerciseKey: String) -> Int {
        let order = (orders[exerciseKey] ?? 0) + 1
        orders[exerciseKey] = order
        return order
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
