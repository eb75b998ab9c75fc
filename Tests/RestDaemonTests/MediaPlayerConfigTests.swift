import RestCore
import Testing

@testable import RestDaemon

/// `[mpris]`: off by default, a boolean and a timer id, each refused with its line when wrong.
@Suite("Configuration: [mpris]")
struct MediaPlayerConfigTests {
    private func problems(_ text: String) -> [String] {
        do {
            _ = try ConfigFile.parse(text, file: "config.toml")
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test("off by default, following the timer \"default\"")
    func defaults() {
        #expect(RestdConfiguration().mediaPlayer.enabled == false)
        #expect(RestdConfiguration().mediaPlayer.timer == .default)
    }

    @Test("enabled and timer are read")
    func read() throws {
        let config = try ConfigFile.parse("[mpris]\nenabled = true\ntimer = \"bench-press\"\n", file: "config.toml")
        #expect(config.mediaPlayer.enabled)
        #expect(config.mediaPlayer.timer == (try TimerID(parsing: "bench-press")))
        #expect(ConfigKey.changedKeys(from: RestdConfiguration(), to: config) == ["mpris.enabled", "mpris.timer"])
    }

    @Test("wrong types and bad ids are refused with their line")
    func refused() {
        #expect(
            problems("[mpris]\nenabled = \"yes\"\n") == [
                "config.toml:2: mpris.enabled: expected true or false, found a string"
            ])
        #expect(
            problems("[mpris]\ntimer = 3\n")
                == [
                    "config.toml:2: mpris.timer: expected the id of a timer (\"default\", \"bench-press\"), found an integer"
                ])
        #expect(
            problems("[mpris]\ntimer = \"a/b\"\n")
                == [
                    "config.toml:2: mpris.timer: timer id \"a/b\" is invalid: use 1 to 64 characters of A-Z, a-z, 0-9, _ and -"
                ])
    }
}
