import ArgumentParser
import Localization
import RestClient

extension Restctl {
    struct Reload: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reload",
            abstract: localized("Have restd read config.toml again."),
            discussion: localized(
                """
                Like systemctl --user reload restd, and it says what happened: "changed:" and the \
                keys whose values changed, or "nothing changed". A file with a mistake is refused \
                with its file:line and reason (exit status 1), and the configuration in force stays.
                """))

        func run() throws {
            let changed = try RestdConnection.withClient { client throws(ClientError) in try client.reload() }
            let nothing = localized("nothing changed")
            // TRANSLATORS: restctl reload; the keys of config.toml that changed follow, as they are written.
            print(changed.isEmpty ? nothing : localized("changed: %1$s", changed.joined(separator: ", ")))
        }
    }
}
