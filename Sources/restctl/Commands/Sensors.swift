import ArgumentParser
import Clocks
import Localization
import RestClient

extension Restctl {
    struct Sensors: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sensors",
            abstract: localized("Show the Bluetooth heart-rate straps restd sees."),
            discussion: localized(
                """
                One line per strap BlueZ knows (paired, or seen with the Heart Rate Service): \
                its address, whether restd is reading it (reading), it is connected but not \
                chosen (connected) or it is not connected (away), paired or unpaired, its \
                battery, the last heart rate restd read from it, and its name. When there is \
                none, it says so on stderr with restd's reason (no system bus, no bluetoothd, \
                the adapter off, [heart_rate] bluetooth "off" in restd's config.toml, or none \
                paired) and prints nothing ([] with --json); the exit status is 0 either way.
                """))

        @OptionGroup var output: OutputFormat

        func run() throws {
            let (sensors, problem) = try RestdConnection.withClient { client throws(ClientError) in
                let sensors = try client.sensors()
                return (sensors, sensors.isEmpty ? try client.sensorsProblem() : "")
            }
            if sensors.isEmpty {
                StandardError.write(
                    "restctl: "
                        + localized(
                            "restd sees no heart-rate strap: %1$s",
                            problem.isEmpty
                                ? localized("pair one with Bluetooth (GNOME Settings, or bluetoothctl)") : problem)
                        + "\n")
            }
            if output.json {
                print(SensorList.json(sensors))
            } else {
                for line in SensorList.lines(sensors, now: KernelClock.realtimeUSec) { print(line) }
            }
        }
    }
}
