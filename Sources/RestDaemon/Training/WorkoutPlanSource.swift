import Glibc
import Localization
import RestCore

/// Where Workout.Start's plan comes from: an absolute path to a plan file, or the plan's TOML
/// text itself. Either way the text is kept with the workout, so that the file can change or go.
struct WorkoutPlanSource {
    /// What problems are reported against when the plan was given as text.
    static let textName = "plan"

    let plan: WorkoutPlan
    let text: String
    /// The path, or "" for a plan given as text.
    let path: String

    /// Reads `argument`: an absolute path (read here, at most 256 KiB), else TOML text.
    init(_ argument: String) throws(ConfigError) {
        func refuse(_ reason: String) -> ConfigError {
            ConfigError([ConfigProblem(file: argument, line: nil, reason: reason)])
        }
        if argument.hasPrefix("/") {
            switch ConfigFile.readFile(argument, maxBytes: WorkoutPlan.Limits.maxFileBytes) {
            case .failure(EFBIG):
                throw refuse(localized("the plan is over %1$d KiB", WorkoutPlan.Limits.maxFileBytes / 1024))
            case .failure(let code):
                throw refuse(localized("cannot be read: %1$s", String(cString: strerror(code))))
            case .success(let bytes):
                guard let text = String(validating: bytes, as: UTF8.self) else {
                    throw refuse(localized("is not UTF-8 text"))
                }
                self.text = text
                path = argument
            }
        } else {
            text = argument
            path = ""
        }
        plan = try WorkoutPlanFile.parse(text, file: path.isEmpty ? Self.textName : path)
    }
}
