import CDBus
import Clocks
import DBusKit
import RestProtocol

/// Scenario 4: a producer sends Live.Update 1,000 times a second; the broadcast stream
/// (PropertiesChanged of Fields, at MaxRateHz) and a 1 Hz subscriber (unicast Changed)
/// must each see exactly their rate, and the final value within one interval.
enum ThrottleUnderLoad {
    static func run(_ context: BenchContext) throws -> [Metric] {
        let rate = 1000.0
        let seconds = context.size(10.0, smoke: 1.5)
        let subscriberHz = 1.0

        let stage = try context.stage()
        let restd = try stage.startRestd()
        let client = try stage.client()
        let broadcastHz =
            try client.call(
                RestBus.name, RestBus.livePath, "org.freedesktop.DBus.Properties", "Get",
                [.string(RestBus.liveInterface), .string(LiveProperty.maxRateHz)]
            )
            .first?.unwrapped.double ?? 2
        let broadcastMatch =
            "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',"
            + "path='\(RestBus.livePath)'"
        let observer = try SignalRecorder(address: stage.bus.address, matches: [broadcastMatch]) { subscriber in
            try subscriber.call(
                RestBus.name, RestBus.livePath, RestBus.liveInterface, LiveMember.subscribe, [.double(subscriberHz)])
        }

        // The producer: update i is sent at start + i/rate, replies read as they come.
        let count = Int(rate * seconds)
        var replies = 0
        var errors = 0
        var firstError: String?
        func drain() {
            while let message = dbus_connection_pop_message(client.raw) {
                let type = dbus_message_get_type(message)
                if type == CDBUS_MESSAGE_TYPE_METHOD_RETURN { replies += 1 }
                if type == CDBUS_MESSAGE_TYPE_ERROR {
                    errors += 1
                    if firstError == nil {
                        let error = ReceivedMessage(message)
                        firstError = "\(error.errorName): \(error.arguments.first?.string ?? "")"
                    }
                }
                dbus_message_unref(message)
            }
        }
        let meter = CPUMeter(pid: restd.pid)
        let start = KernelClock.monotonicSeconds
        let startRealtime = Clock.realtimeUSec
        var lastSent: Int64 = 0
        var behind = 0.0
        for i in 0..<count {
            let due = start + Double(i) / rate
            Clock.sleep(untilMonotonic: due)
            behind = max(behind, KernelClock.monotonicSeconds - due)
            let message = RawMessage.call(
                RestBus.name, RestBus.livePath, RestBus.liveInterface, LiveMember.update,
                [
                    .vardict(["heart_rate": .int32(Int32(60 + i % 120)), "x_seq": .int64(Int64(i))])
                ])
            dbus_connection_send(client.raw, message, nil)
            dbus_message_unref(message)
            lastSent = Clock.realtimeUSec
            _ = dbus_connection_read_write(client.raw, 0)
            drain()
        }
        let producerSeconds = KernelClock.monotonicSeconds - start
        let cpu = meter.read()
        poll(timeout: 30, interval: 0) {
            _ = dbus_connection_read_write(client.raw, 100)
            drain()
            return replies + errors >= count
        }
        // The last value is due within one interval of the slowest stream; wait a little longer.
        Clock.sleep(1 / subscriberHz + 0.5)
        let records = observer.stop()

        let final = Int64(count - 1)
        func stream(
            _ member: String, fields: (ReceivedMessage) -> [String: DBusValue]?,
            publishedAt: (ReceivedMessage) -> Int64?
        ) -> Stream {
            var result = Stream()
            for record in records where record.message.member == member && record.arrivalNSec / 1000 >= startRealtime {
                let arrival = record.arrivalNSec / 1000
                result.emissions.append((arrival, publishedAt(record.message) ?? arrival))
                if result.finalAt == nil, fields(record.message)?["x_seq"]?.unwrapped.int64 == final {
                    result.finalAt = arrival
                }
            }
            return result
        }
        let broadcast = stream(
            "PropertiesChanged",
            fields: { message in
                message.arguments.count > 1
                    ? message.arguments[1].vardictEntries?["Fields"]?.unwrapped.vardictEntries : nil
            },
            publishedAt: { message in
                message.arguments.count > 1
                    ? message.arguments[1].vardictEntries?[LiveProperty.updatedAtUSec]?.unwrapped.uint64.map(Int64.init)
                    : nil
            })
        let subscriber = stream(
            LiveMember.changed, fields: { $0.arguments.first?.vardictEntries },
            publishedAt: { $0.arguments.count > 1 ? $0.arguments[1].uint64.map(Int64.init) : nil })

        var metrics = [
            Metric(
                4, "Producer: Live.Update at \(grouped(rate))/s for \(fixed(seconds, 0)) s",
                "\(grouped(Double(count))) sent in \(fixed(producerSeconds, 2)) s, \(grouped(Double(replies))) answered, \(errors) errors",
                values: [
                    "sent": Double(count), "answered": Double(replies), "errors": Double(errors),
                    "seconds": producerSeconds, "max_behind_ms": behind * 1000,
                ],
                note: firstError.map { "first error: \($0)" })
        ]
        metrics += describe(
            name: "Broadcast (PropertiesChanged)", hz: broadcastHz, stream: broadcast,
            lastSent: lastSent, startRealtime: startRealtime, seconds: producerSeconds)
        metrics += describe(
            name: "1 Hz subscriber (Changed)", hz: subscriberHz, stream: subscriber,
            lastSent: lastSent, startRealtime: startRealtime, seconds: producerSeconds)
        metrics.append(
            Metric(
                4, "restd CPU while throttling \(grouped(rate)) updates/s", "\(fixed(cpu.share * 100, 1)) % of a core",
                target: "< 10 % of a core", verdict: Verdict(cpu.share < 0.10),
                values: ["cpu_share": cpu.share, "cpu_seconds": cpu.seconds]))
        return metrics
    }

    /// One observed stream: each emission's arrival and restd's own publication time (the
    /// `at_usec` of Changed, the `UpdatedAtUSec` in the broadcast), and when the final value came.
    struct Stream {
        var emissions: [(arrival: Int64, published: Int64)] = []
        var finalAt: Int64?
    }

    /// Rate and final-value lag of one stream. The rate is counted over the producer's run:
    /// a leading edge at once, then one emission per interval. Gaps are between restd's
    /// publication times, so that one emission delayed on its way (a busy machine) is not
    /// taken for two published too close together; the lag is measured at arrival.
    static func describe(
        name: String, hz: Double, stream: Stream,
        lastSent: Int64, startRealtime: Int64, seconds: Double
    ) -> [Metric] {
        let interval = 1 / hz
        let during = stream.emissions.filter { $0.arrival <= lastSent + Int64(interval * 1e6) }.map(\.published)
        let gaps = zip(during.dropFirst(), during).map { Double($0 - $1) / 1e6 }
        let observedHz = gaps.isEmpty ? 0 : Double(gaps.count) / gaps.reduce(0, +)
        let shortest = gaps.min() ?? 0
        // Exactly the rate: no two publications closer than the interval (the throttle's timer
        // has 1 ms of accuracy; 20 ms allowed), and no fewer than the interval allows.
        let expected = Int((seconds * hz).rounded())
        let rateMet = shortest >= interval - 0.02 && during.count >= expected && during.count <= expected + 2
        var metrics = [
            Metric(
                4, "\(name): emissions",
                "\(during.count) in \(fixed(seconds, 1)) s = \(fixed(observedHz, 2)) Hz, "
                    + "gaps min \(fixed(shortest * 1000, 0)) / median \(fixed(median(gaps) * 1000, 0)) ms",
                target: "\(fixed(hz, 0)) Hz exactly", verdict: Verdict(rateMet),
                values: [
                    "emissions": Double(during.count), "observed_hz": observedHz, "configured_hz": hz,
                    "min_gap_ms": shortest * 1000, "median_gap_ms": median(gaps) * 1000,
                ])
        ]
        if let finalAt = stream.finalAt {
            let lag = Double(finalAt - lastSent) / 1000
            metrics.append(
                Metric(
                    4, "\(name): lag of the final value", "\(fixed(lag, 1)) ms",
                    target: "≤ one interval (\(fixed(interval * 1000, 0)) ms)",
                    verdict: Verdict(lag <= interval * 1000),
                    values: ["lag_ms": lag, "interval_ms": interval * 1000]))
        } else {
            metrics.append(
                Metric(
                    4, "\(name): lag of the final value", "the final value never arrived",
                    target: "≤ one interval (\(fixed(interval * 1000, 0)) ms)", verdict: .missed))
        }
        return metrics
    }
}
