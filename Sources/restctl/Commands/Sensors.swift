import ArgumentParser
import Clocks
import RestClient

extension Restctl {
    struct Sensors: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sensors",
            abstract: "Show the Bluetooth heart-rate straps restd sees.",
            discussion: """
                One line per strap BlueZ knows (paired, or seen with the Heart Rate Service): \
                its address, whether restd is reading it (reading), it is connected but not \
                chosen (connected) or it is not connected (away), paired or unpaired, its \
                battery, the last heart rate restd read from it, and its name. When there is \
                none (none paired, [heart_rate] bluetooth is "off" in restd's config.toml, or \
                no bluetoothd), it says so on stderr and prints nothing ([] with --json); the \
                exit status is 0 either way.
                """)

        @OptionGroup var output: OutputFormat

        func run() throws {
            let sensors = try RestdConnection.withClient { client throws(ClientError) in try client.sensors() }
            if sensors.isEmpty {
                StandardError.write(
                    "restctl: restd sees no heart-rate strap: pair one with Bluetooth, and check that bluetoothd "
                        + "runs and [heart_rate] bluetooth is not \"off\" in restd's config.toml\n")
            }
            if output.json {
                print(SensorList.json(sensors))
            } else {
                for line in SensorList.lines(sensors, now: KernelClock.realtimeUSec) { print(line) }
            }
        }
    }
}
