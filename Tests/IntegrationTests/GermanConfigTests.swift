import Foundation
import ProcessHarness
import Testing

extension GermanTests {
    @Test("restd --check-config says config.toml's problems in German, a TOML syntax error too")
    func checkConfigInGerman() throws {
        try German.requireCatalog()
        let home = try ConfigHome("max_timers = \"many\"\n[sound]\nenabled = true\nenabled = false\n")
        let restd = try BuildProducts.executable("restd")
        func check() -> CommandResult {
            Command.run(
                [restd, "--check-config"],
                environment: German.environment.merging(["XDG_CONFIG_HOME": home.path]) { $1 })
        }
        let syntax = check()
        #expect(syntax.status == 78, "\(syntax)")
        #expect(
            syntax.stderr
                == "\(home.file):4: kein gültiges TOML: der Schlüssel enabled ist doppelt definiert\n", "\(syntax)")

        try home.write("max_timers = \"many\"\n[sound]\nenabld = true\n")
        let keys = check()
        #expect(keys.status == 78, "\(keys)")
        #expect(
            keys.stderr == """
                \(home.file):1: max_timers: ganze Zahl von 1 bis 10000 erwartet, gefunden: eine Zeichenkette
                \(home.file):3: unbekannter Schlüssel 'sound.enabld'; meinten Sie 'sound.enabled'?

                """, "\(keys)")
    }
}
