import Foundation
import ProcessHarness
import RestProtocol
import Testing

extension GermanTests {
    @Test("restd refuses in German under LANG=de_DE.UTF-8: on the bus, through restctl and in its log")
    func restdRefusesInGerman() throws {
        try German.requireCatalog()
        let daemon = try RunningDaemon(environment: German.environment)
        let reps = busctl(
            daemon.bus,
            [
                "call", "--", RestBus.name, RestBus.managerPath, RestBus.managerInterface, "CompleteSet", "ssa{sv}",
                "default", "Squat", "1", "reps", "u", "100000",
            ])
        #expect(
            PseudoLanguageTests.refusal(reps) == "reps 100000 liegt außerhalb des Bereichs: geben Sie 0 bis 10000 an",
            "\(reps)")
        // Durations inside restd's sentence in German's unit words, as restctl writes them.
        #expect(restctl(daemon.bus, ["start", "23h30m", "--no-notify"]).status == 0)
        let added = restctl(daemon.bus, ["add", "1h"], environment: German.environment)
        #expect(
            added.stderr.hasPrefix(
                "restctl: Timer \"default\" hätte noch 24 Std. 30 Min., und ein Timer darf höchstens 24 Std. haben; "
                    + "geben Sie höchstens 30 Min. hinzu"), "\(added)")
        let sensors = restctl(daemon.bus, ["sensors"], environment: German.environment)
        #expect(sensors.stderr.contains(": keine Verbindung zum Systembus möglich ("), "\(sensors)")
        #expect(
            daemon.log().contains(" warning: auf dem Sitzungsbus läuft kein Benachrichtigungsdienst"), "\(daemon.log())"
        )
    }
}
