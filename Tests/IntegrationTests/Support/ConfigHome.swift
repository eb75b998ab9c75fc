import ProcessHarness

/// An XDG_CONFIG_HOME whose restd/config.toml holds `text`, or no file for nil (the defaults).
final class ConfigHome {
    let directory: TempDirectory
    var path: String { directory.path }
    var file: String { directory.path("restd/config.toml") }

    init(_ text: String?) throws {
        directory = try TempDirectory(prefix: "restd-cfg")
        if let text { try write(text) }
    }

    func write(_ text: String) throws {
        try directory.write("restd/config.toml", text)
    }
}
