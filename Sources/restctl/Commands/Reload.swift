import ArgumentParser
import RestClient

extension Restctl {
    struct Reload: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reload",
            abstract: "Have restd read config.toml again.",
            discussion: """
                Like systemctl --user reload restd, and it says what happened: "changed:" and the \
                keys whose values changed, or "nothing changed". A file with a mistake is refused \
                with its file:line and reason (exit status 1), and the configuration in force stays.
                """)

        func run() throws {
            let changed = try RestdConnection.withClient { client throws(ClientError) in try client.reload() }
            print(changed.isEmpty ? "nothing changed" : "changed: \(changed.joined(separator: ", "))")
        }
    }
}
