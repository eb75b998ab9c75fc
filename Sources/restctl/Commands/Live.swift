import ArgumentParser
import Localization
import RestClient

extension Restctl {
    struct Live: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "live",
            abstract: localized("Send live fields (heart rate, progress) to restd."),
            discussion: localized(
                """
                The fields given are sent as one update; --end clears every field.

                With --stdin, each line of standard input is one update, as key=value fields \
                (heart_rate=142 progress_done=3 exercise="Bench press") or a flat JSON object \
                ({"heart_rate":142,"exercise":"Bench press"}). Empty lines and lines starting \
                with # are skipped. A line that cannot be read, or that restd refuses, is \
                reported on stderr with its number and skipped; the stream goes on, and the \
                exit status at its end is 1 if any line was skipped, else 0. restd going away \
                ends the stream with status 69.

                heart_rate, progress_done and progress_total are integers; exercise and workout \
                are texts. Custom keys x_[a-z0-9_]{1,30} take true or false, an integer, a \
                decimal number (2.5, 1e3; in JSON 142 is an integer and 142.0 a number), or a \
                text; in key=value lines, quote a text with spaces as "…", with \\" and \\\\ inside.
                """))

        @Option(
            name: .customLong("heart-rate"),
            help: ArgumentHelp(localized("Heart rate in beats per minute."), valueName: "bpm"))
        var heartRate: String?

        @Option(help: ArgumentHelp(localized("How many sets are done (progress_done)."), valueName: "n"))
        var done: String?

        @Option(help: ArgumentHelp(localized("How many sets there are (progress_total)."), valueName: "n"))
        var total: String?

        @Option(help: ArgumentHelp(localized("The exercise under way."), valueName: "text"))
        var exercise: String?

        @Option(help: ArgumentHelp(localized("The workout's name."), valueName: "text"))
        var workout: String?

        @Option(
            name: .customLong("set"),
            help: ArgumentHelp(
                localized("Any field, typed as in --stdin lines (x_zone=3); may be repeated."), valueName: "key=value"))
        var assignments: [String] = []

        @Flag(help: ArgumentHelp(localized("End the activity: clear every field.")))
        var end = false

        @Flag(help: ArgumentHelp(localized("Read one update per line from standard input, until its end.")))
        var stdin = false

        func validate() throws {
            let hasFields =
                heartRate != nil || done != nil || total != nil || exercise != nil || workout != nil
                || !assignments.isEmpty
            if stdin && (hasFields || end) {
                throw ValidationError(
                    localized("--stdin reads every update from standard input; give no fields or --end with it"))
            }
            if end && hasFields {
                throw ValidationError(localized("--end clears every field; give no fields with it"))
            }
            if !stdin && !end && !hasFields {
                throw ValidationError(
                    localized(
                        "give at least one field (--heart-rate, --done, --total, --exercise, --workout, --set KEY=VALUE), --end or --stdin."
                    ))
            }
            _ = try fields()
        }

        func run() throws {
            if stdin { return try stream() }
            if end { return try RestdConnection.withClient { client throws(ClientError) in try client.endLive() } }
            let fields = try fields()
            try RestdConnection.withClient { client throws(ClientError) in try client.updateLive(fields) }
        }

        /// The fields to send, refusing what restd would refuse (a heart rate out of range, an
        /// unknown key) with its sentence.
        private func fields() throws(RestctlError) -> [String: LiveInput.Value] {
            let whole = { (text: String?, option: String) throws(RestctlError) in
                try text.map { (text) throws(RestctlError) in try NumberArgument.whole(text, option: option) }
            }
            let (heartRate, done, total) = (
                try whole(heartRate, "--heart-rate"), try whole(done, "--done"), try whole(total, "--total")
            )
            do throws(InputError) {
                let fields = try LiveInput.fields(
                    heartRate: heartRate, done: done, total: total, exercise: exercise, workout: workout,
                    assignments: assignments)
                try LiveInput.check(fields)
                return fields
            } catch {
                throw RestctlError(.usage, error.message)
            }
        }

        /// One update per line over one connection; a bad line is reported and skipped.
        private func stream() throws(RestctlError) {
            let client: RestdClient
            do {
                client = try RestdClient()
            } catch {
                throw RestctlError(error)
            }
            var number = 0
            var updates = 0
            var skipped = 0
            // The restd (unique bus name) that took the first update: the fields live in it.
            var receiver: String?
            while let line = readLine(strippingNewline: true) {
                number += 1
                let fields: [String: LiveInput.Value]
                do {
                    fields = try LiveInput.parseLine(line)
                } catch {
                    updates += 1
                    skipped += 1
                    StandardError.write("restctl: " + Self.atLine(number, error.message) + "\n")
                    continue
                }
                if fields.isEmpty { continue }
                updates += 1
                do {
                    try client.updateLive(fields)
                    if receiver == nil { receiver = try client.daemonOwner() }
                } catch {
                    let failure = RestctlError(error)
                    // Anything but a refusal of this very line (restd or the bus gone) ends the stream.
                    guard failure.kind == .refused else {
                        throw RestctlError(failure.kind, Self.atLine(number, failure.message))
                    }
                    skipped += 1
                    StandardError.write("restctl: " + Self.atLine(number, failure.oneLine) + "\n")
                }
            }
            // The bus or restd may have gone while restctl waited for input: what was sent went
            // with it (live fields are not kept across a restart), and that is not a success.
            if let receiver {
                let owner: String?
                do {
                    owner = try client.daemonOwner()
                } catch {
                    throw RestctlError(
                        .unavailable, localized("after line %1$d: %2$s", number, RestctlError(error).message))
                }
                guard owner == receiver else {
                    throw RestctlError(
                        .unavailable,
                        localized(
                            "after line %1$d: restd stopped, and the live fields sent went with it; send them again once it runs: %2$s",
                            number, ServiceHint.startRestd))
                }
            }
            if skipped > 0 {
                throw RestctlError(
                    .failed,
                    localizedPlural(
                        "skipped %1$d of %2$d update", "skipped %1$d of %2$d updates", count: updates, skipped, updates)
                )
            }
        }

        /// "line 3: why": a line of standard input restd or restctl did not take.
        private static func atLine(_ number: Int, _ why: String) -> String {
            localized("line %1$d: %2$s", number, why)
        }
    }
}
