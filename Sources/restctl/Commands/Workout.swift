import ArgumentParser
import Localization
import RestClient
import RestCore

#if canImport(Glibc)
import Glibc
#endif

extension Restctl {
    /// `restctl workout …`: a session walked through a plan (see `restctl set`).
    struct Workout: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "workout",
            abstract: localized("Follow a workout plan, set by set."),
            discussion: localized(
                """
                A plan is a TOML file: $XDG_CONFIG_HOME/restd/workouts/NAME.toml, or any path. \
                During a workout, restctl set with no --exercise records the plan's next set \
                and starts its rest. One workout at a time.
                """),
            subcommands: [Start.self, Status.self, Next.self, Previous.self, End.self, List.self])

        /// $XDG_CONFIG_HOME/restd/workouts (~/.config/restd/workouts).
        static var plansDirectory: String {
            let config =
                getenv("XDG_CONFIG_HOME").map { String(cString: $0) }.flatMap { $0.hasPrefix("/") ? $0 : nil }
                ?? ((getenv("HOME").map { String(cString: $0) } ?? "") + "/.config")
            return config + "/restd/workouts"
        }

        /// A plan's path: NAME in the plans directory, or a path as given (made absolute).
        static func planPath(_ nameOrPath: String) -> String {
            if nameOrPath.contains("/") || nameOrPath.hasSuffix(".toml") {
                if nameOrPath.hasPrefix("/") { return nameOrPath }
                let cwd =
                    getcwd(nil, 0).map { pointer in
                        defer { free(pointer) }
                        return String(cString: pointer)
                    } ?? "."
                return cwd + "/" + nameOrPath
            }
            return plansDirectory + "/" + nameOrPath + ".toml"
        }

        struct Start: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "start",
                abstract: localized("Start a workout from a plan: NAME (in $XDG_CONFIG_HOME/restd/workouts) or a path.")
            )

            @Argument(help: ArgumentHelp(localized("The plan's name or path."), valueName: "name|path"))
            var plan: String

            func run() throws {
                let path = Workout.planPath(plan)
                // A plan restd could not read is the command line's mistake, found before restd is
                // asked: a name where it was looked for, with the plan likely meant; a path with why.
                if !plan.contains("/"), !plan.hasSuffix(".toml"), access(path, F_OK) != 0 {
                    throw RestctlError(
                        .usage,
                        localized("no workout plan %1$s in %2$s", MessageText.quoted(plan), Workout.plansDirectory)
                            + SuggestionText.hint(
                                for: plan, among: Workout.planNames(),
                                otherwise: localized(
                                    "%1$s shows the plans there", MessageText.name("restctl workout list"))))
                }
                if access(path, R_OK) != 0 {
                    throw RestctlError(
                        .usage,
                        localized(
                            "workout plan %1$s cannot be read: %2$s", MessageText.quoted(path, limit: 200),
                            String(cString: strerror(errno))))
                }
                let (status, known, unit) = try RestdConnection.withClient { client throws(ClientError) in
                    try client.startWorkout(path)
                    // The hint is extra: its lookup failing does not fail the start.
                    return (try client.workoutStatus(), (try? client.exerciseNames()) ?? [], try client.weightUnit())
                }
                print(status.line(unit: unit))
                // The plan is started either way: a likely typo in it is a note, not a refusal.
                StandardError.write(
                    ExerciseNames.notes(for: status.planExercises, known: known).map { "restctl: \($0)\n" }.joined())
            }
        }

        struct Status: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "status",
                abstract: localized("Show the workout in progress, or the summary of the last one."))

            @OptionGroup var output: OutputFormat

            func run() throws {
                let (status, unit) = try RestdConnection.withClient { client throws(ClientError) in
                    (try client.workoutStatus(), try client.weightUnit())
                }
                print(output.json ? status.json(unit: unit) : status.line(unit: unit))
            }
        }

        struct Next: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "next",
                abstract: localized("Move to the next exercise without recording a set."))

            func run() throws { try Workout.move("Next") }
        }

        struct Previous: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "previous",
                abstract: localized("Move back to the previous exercise without undoing a set."))

            func run() throws { try Workout.move("Previous") }
        }

        struct End: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "end",
                abstract: localized("End the workout in progress and show its summary."),
                discussion: localized("A workout ended before its first set is not recorded, and says so."))

            func run() throws {
                let line = try RestdConnection.withClient { client throws(ClientError) in
                    let before = try client.workoutStatus()
                    try client.workout("End")
                    guard before.active, before.setsDone == 0 else {
                        return try client.workoutStatus().line(unit: client.weightUnit())
                    }
                    return localized("%1$s ended before its first set: nothing was recorded", before.name)
                }
                print(line)
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list",
                abstract: localized("List the plans in $XDG_CONFIG_HOME/restd/workouts."))

            func run() throws {
                let names = Workout.planNames()
                if names.isEmpty {
                    // On stderr, so that a script reading the names reads none.
                    StandardError.write(
                        "restctl: "
                            + localized(
                                "no workout plans in %1$s; a plan is a NAME.toml file there ('man 5 restd.conf' says what goes in it)",
                                Workout.plansDirectory) + "\n")
                }
                for name in names { print(name) }
            }
        }

        /// The names of the plans in the plans directory, sorted; none when it cannot be read.
        static func planNames() -> [String] {
            guard let directory = opendir(Workout.plansDirectory) else { return [] }
            defer { closedir(directory) }
            var names: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
                }
                if name.hasSuffix(".toml"), name.count > 5 { names.append(String(name.dropLast(5))) }
            }
            return names.sorted()
        }

        /// Next or Previous, then the status line.
        static func move(_ member: String) throws {
            let status = try RestdConnection.withClient { client throws(ClientError) in
                try client.workout(member)
                return try client.workoutStatus().line(unit: client.weightUnit())
            }
            print(status)
        }
    }
}
