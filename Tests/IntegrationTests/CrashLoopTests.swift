import Foundation
import ProcessHarness
import RestClient
import RestProtocol
import SeededRandom
import Synchronization
import Testing

/// kill -9 at random moments while a client mutates timers: every acknowledged mutation
/// survives, nothing refused appears, and the state is one a serial execution could produce.
@Suite("Crash durability", .serialized, .tags(.slow, .everyBus))
struct CrashLoopTests {
    /// What the test can check of a timer after a restart (no time-dependent fields).
    struct Shape: Equatable, CustomStringConvertible {
        var state: String
        var label: String
        var durationUSec: UInt64
        var baseDurationUSec: UInt64
        var description: String { "\(state) \(label) \(durationUSec)" }
    }

    typealias Model = [String: Shape]

    enum Operation: CustomStringConvertible {
        case start(String, UInt64, String), pause(String), resume(String), adjust(String, Int64), restart(String),
            cancel(String)

        var description: String {
            switch self {
            case .start(let id, let d, let label): "start \(id) \(d) \(label)"
            case .pause(let id): "pause \(id)"
            case .resume(let id): "resume \(id)"
            case .adjust(let id, let delta): "adjust \(id) \(delta)"
            case .restart(let id): "restart \(id)"
            case .cancel(let id): "cancel \(id)"
            }
        }

        /// The model after this operation, or nil when restd must refuse it.
        func apply(to model: Model) -> Model? {
            var model = model
            switch self {
            case .start(let id, let duration, let label):
                model[id] = Shape(state: "running", label: label, durationUSec: duration, baseDurationUSec: duration)
            case .pause(let id):
                guard var timer = model[id] else { return nil }
                timer.state = "paused"
                model[id] = timer
            case .resume(let id):
                guard var timer = model[id] else { return nil }
                timer.state = "running"
                model[id] = timer
            case .adjust(let id, let delta):
                guard var timer = model[id] else { return nil }
                timer.durationUSec = UInt64(Int64(timer.durationUSec) + delta)
                model[id] = timer
            case .restart(let id):
                guard var timer = model[id] else { return nil }
                timer.state = "running"
                timer.durationUSec = timer.baseDurationUSec
                model[id] = timer
            case .cancel(let id):
                guard model[id] != nil else { return nil }
                model[id] = nil
            }
            return model
        }

        func run(_ client: RestdClient) throws(ClientError) {
            switch self {
            case .start(let id, let duration, let label): try client.start(id: id, durationUSec: duration, label: label)
            case .pause(let id): try client.pause(id: id)
            case .resume(let id): try client.resume(id: id)
            case .adjust(let id, let delta): try client.adjust(id: id, deltaUSec: delta)
            case .restart(let id): try client.restart(id: id)
            case .cancel(let id): try client.cancel(id: id)
            }
        }
    }

    enum Outcome { case acknowledged, refused, unknown }

    /// Errors that mean the call got no answer: it may or may not have been carried out.
    static let unanswered: Set<String> = [
        "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Disconnected",
    ]

    /// Long rests and small adjustments: nothing expires on its own during the test.
    static func randomOperation(using random: inout SplitMix64) -> Operation {
        let id = ["a", "b", "c", "d"].randomElement(using: &random)!
        switch Int.random(in: 0..<10, using: &random) {
        case 0...2:
            return .start(
                id, UInt64.random(in: 3600...7200, using: &random) * 1_000_000,
                "L\(Int.random(in: 0...9, using: &random))")
        case 3: return .pause(id)
        case 4: return .resume(id)
        case 5, 6:
            return .adjust(
                id, Int64.random(in: 1...60, using: &random) * 1_000_000 * (Bool.random(using: &random) ? 1 : -1))
        case 7: return .restart(id)
        default: return .cancel(id)
        }
    }

    static func shapes(_ client: RestdClient) throws -> Model {
        var model: Model = [:]
        for timer in try client.timers() {
            model[timer.id] = Shape(
                state: timer.state, label: timer.label, durationUSec: timer.durationUSec, baseDurationUSec: 0)
        }
        return model
    }

    static func withoutBase(_ model: Model) -> Model {
        model.mapValues { Shape(state: $0.state, label: $0.label, durationUSec: $0.durationUSec, baseDurationUSec: 0) }
    }

    @Test("100 rounds of random mutations and kill -9: zero losses")
    func crashLoop() throws {
        let setup = try RestdSetup()
        let bus = setup.bus
        var random = SplitMix64(state: 0x5EED)
        var model: Model = [:]
        var losses: [String] = []
        var acknowledged = 0
        var killedMidCall = 0

        for round in 0..<100 {
            let daemon = try setup.start()
            let restd = daemon.restd
            let operations = (0..<Int.random(in: 5...40, using: &random)).map { _ in
                Self.randomOperation(using: &random)
            }
            // The random moment: after a random number of replies, plus up to 3 ms, so that the
            // kill lands between calls or in the middle of one whatever the machine's speed.
            let killAfterReplies = Int.random(in: 0...operations.count, using: &random)
            let jitter = UInt32.random(in: 0...3000, using: &random)
            let log = Mutex<[(Operation, Outcome)]>([])
            let address = bus.address

            // The client logs every reply it gets; restd is killed at a random moment meanwhile.
            let finished = DispatchSemaphore(value: 0)
            let worker = Thread {
                defer { finished.signal() }
                guard let client = try? RestdClient(address: address) else { return }
                for operation in operations {
                    do throws(ClientError) {
                        try operation.run(client)
                        log.withLock { $0.append((operation, .acknowledged)) }
                    } catch {
                        if case .refused(let refusal) = error, !Self.unanswered.contains(refusal.name) {
                            log.withLock { $0.append((operation, .refused)) }
                            continue
                        }
                        log.withLock { $0.append((operation, .unknown)) }
                        return  // restd is gone: the rest was never sent
                    }
                }
            }
            worker.start()
            // Looking every 0.2 ms, so that the kill lands right after the chosen reply.
            try waitUntil("\(killAfterReplies) replies", interval: 0.000_2) {
                log.withLock { $0.count } >= killAfterReplies || worker.isFinished
            }
            usleep(jitter)  // the random part of the moment, not a wait for anything
            _ = restd.kill9()
            #expect(finished.wait(timeout: .now() + 60) == .success, "the client finished")

            // Replay what the client was told on the model; the one call without an answer may
            // or may not have been applied.
            var possible: [Model] = []
            for (operation, outcome) in log.withLock({ $0 }) {
                switch outcome {
                case .acknowledged:
                    acknowledged += 1
                    guard let next = operation.apply(to: model) else {
                        losses.append("round \(round): \(operation) was acknowledged but the model refuses it")
                        continue
                    }
                    model = next
                case .refused:
                    if operation.apply(to: model) != nil { losses.append("round \(round): \(operation) was refused") }
                case .unknown:
                    killedMidCall += 1
                    possible.append(operation.apply(to: model) ?? model)
                }
            }
            possible.insert(model, at: 0)

            let restarted = try setup.start()
            let actual = try Self.shapes(restarted.client)
            if let match = possible.first(where: { Self.withoutBase($0) == actual }) {
                model = match  // go on from the state that actually happened
            } else {
                losses.append("round \(round): restd has \(actual), expected one of \(possible.map(Self.withoutBase))")
                break
            }
            _ = restarted.restd.kill9()
        }
        #expect(losses.isEmpty, "\(losses.joined(separator: "\n"))")
        // The test only means something if kills really land between calls and in the middle of them.
        #expect(acknowledged > 300, "\(acknowledged) acknowledged mutations")
        #expect(killedMidCall > 10, "\(killedMidCall) rounds killed with a call in flight")
        print(
            "crash loop: \(acknowledged) acknowledged mutations, \(killedMidCall) calls in flight at kill -9, 0 losses")
    }

    @Test("SIGTERM in the middle of a burst of writes: clean exit, nothing half-written")
    func sigtermDuringBurst() throws {
        let daemon = try RunningDaemon()
        let log = Mutex<[String]>([])
        let address = daemon.bus.address
        let worker = Thread {
            guard let client = try? RestdClient(address: address) else { return }
            for index in 0..<2000 {
                do {
                    try client.start(id: "t\(index % 50)", durationUSec: 3_600_000_000, label: "burst \(index)")
                    log.withLock { $0.append("t\(index % 50)=burst \(index)") }
                } catch {
                    return
                }
            }
        }
        worker.start()
        // The burst is under way (or the worker gave up, which the check below reports).
        try waitUntil("100 replies or the worker's end", timeout: 60, interval: 0.001) {
            log.withLock { $0.count } >= 100 || worker.isFinished
        }
        try #require(log.withLock { $0.count } >= 100, "the burst did not get going\n\(daemon.restd.log())")
        daemon.restd.terminate()
        #expect(try daemon.restd.waitForExit() == 0, "\(daemon.restd.log())")
        try waitUntil("the client thread to end", interval: 0.001) { worker.isFinished }

        var expected: [String: String] = [:]
        for entry in log.withLock({ $0 }) {
            let parts = entry.split(separator: "=", maxSplits: 1)
            expected[String(parts[0])] = String(parts[1])
        }
        try daemon.start()
        let timers = try daemon.client.timers()
        for (id, label) in expected {
            let timer = timers.first { $0.id == id }
            // The last acknowledged label, or the one of the call in flight at SIGTERM.
            #expect(timer != nil, "\(id) lost")
            if let timer, timer.label != label {
                let acknowledged = Int(label.dropFirst("burst ".count))!
                let stored = Int(timer.label.dropFirst("burst ".count)) ?? -1
                #expect(stored == acknowledged + 50, "\(id): stored \(timer.label), acknowledged \(label)")
            }
        }
    }
}
