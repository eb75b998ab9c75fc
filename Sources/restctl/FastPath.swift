import RestClient

/// `restctl status`, which bars and scripts run again and again, read without ArgumentParser:
/// its parsing asks the Swift runtime about every option's type (conformance look-ups that scan
/// the whole table of a static binary), most of the instructions of `restctl status --json`.
/// Only plain, valid argument lists are taken here — `--id ID`,
/// `--id=ID`, `--json`, each at most once; anything else (help, a mistake, a value that looks
/// like an option) goes to ArgumentParser, which then says what it always says. It cannot read
/// `Status`'s options from their description without the cost it exists to avoid: FastPathTests
/// hold it to that description and check that what it reads is what ArgumentParser reads.
enum FastPath {
    /// What `restctl status …` asks for.
    struct StatusRequest: Equatable {
        var id = TimerIDParser.defaultID
        var json = false
    }

    /// The request, when `arguments` (without the program's name) are a plain `status` command.
    static func status(_ arguments: [String]) -> StatusRequest? {
        guard arguments.first == "status" else { return nil }
        var request = StatusRequest()
        var seenID = false
        var seenJSON = false
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            if argument == "--json", !seenJSON {
                request.json = true
                seenJSON = true
            } else if argument == "--id", !seenID, let value = rest.popFirst(), !value.hasPrefix("-") {
                request.id = value
                seenID = true
            } else if argument.hasPrefix("--id="), !seenID {
                request.id = String(argument.dropFirst("--id=".count))
                seenID = true
            } else {
                return nil
            }
        }
        // An id restctl refuses gets ArgumentParser's usage message.
        guard (try? TimerIDParser.parse(request.id)) != nil else { return nil }
        return request
    }
}
