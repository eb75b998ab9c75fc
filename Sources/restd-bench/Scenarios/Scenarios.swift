/// The scenarios, in the order they run.
let allScenarios: [(number: Int, title: String, run: @Sendable (BenchContext) throws -> [Metric])] = [
    (1, "Expiry precision", ExpiryPrecision.run),
    (2, "Wake-ups", WakeUps.run),
    (3, "Call throughput", Throughput.run),
    (4, "Throttle under load", ThrottleUnderLoad.run),
    (5, "CLI latency", CLILatency.run),
    (6, "Scale", Scale.run),
    (7, "Footprint", Footprint.run),
    (8, "Training", Training.run),
    (9, "Training report", TrainingReport.run),
    (10, "Sound", SoundTiming.run),
    (11, "Import", ImportScenario.run),
]
