import DBusKit
import RestCore
import RestProtocol

extension HeartRateTrace {
    /// Reads one entry of io.restd.Rest1.History.HeartRates; unknown keys are ignored.
    public init(entry: [String: DBusValue]) throws(ClientError) {
        func value(_ key: String) -> DBusValue? { entry[key]?.unwrapped }
        guard let setID = value(HistoryKey.setID)?.int64, let started = value(HistoryKey.startedAtUSec)?.uint64,
            let bytes = value(HistoryKey.bpm)?.arrayElements, let minimum = value(HistoryKey.minimumUSec)?.uint64,
            let hold = value(HistoryKey.holdUSec)?.uint64, let ended = value(HistoryKey.endedAfterUSec)?.uint64,
            let ending = value(HistoryKey.ending)?.string.flatMap(Ending.init(rawValue:))
        else { throw .badReply("a heart-rate trace without set_id, started_at_usec, bpm, its rule or its end") }
        var bpm: [UInt8] = []
        bpm.reserveCapacity(bytes.count)
        for byte in bytes {
            guard case .byte(let value) = byte else { throw .badReply("a heart-rate trace's bpm is not an ay") }
            bpm.append(value)
        }
        self.init(
            setID: setID, startedAtUSec: started, bpm: bpm, targetBPM: value(HistoryKey.targetBPM)?.double,
            minimumUSec: minimum, holdUSec: hold, endedAfterUSec: ended, ending: ending)
    }

    /// `{"started_at":"…","bpm":[152,151,null,…],"target_bpm":120,"minimum_usec":60000000,
    /// "hold_usec":10000000,"ended_after_usec":74000000,"ending":"recovered"}`: `history --json`'s
    /// `rest_heart_rate`, the heart rate once a second from the rest's start (null where unknown).
    public var jsonObject: JSONObject {
        var object = JSONObject()
        object.instant("started_at", usec: startedAtUSec)
        object.raw("bpm", "[" + bpm.map { $0 == 0 ? "null" : String($0) }.joined(separator: ",") + "]")
        object.number("target_bpm", targetBPM)
        object.duration("minimum_usec", usec: minimumUSec)
        object.duration("hold_usec", usec: holdUSec)
        object.duration("ended_after_usec", usec: endedAfterUSec)
        object.text("ending", ending.rawValue)
        return object
    }
}

extension RestdClient {
    /// The heart-rate traces of the followed rests that began in [since, until) (until 0: no
    /// end), oldest first; none from a restd that does not keep them.
    public func heartRateTraces(sinceUSec: UInt64, untilUSec: UInt64) throws(ClientError) -> [HeartRateTrace] {
        let entries: [[String: DBusValue]]
        do {
            entries = try callForRecords(
                path: RestBus.historyPath, interface: RestBus.historyInterface, member: HistoryMember.heartRates,
                [.uint64(sinceUSec), .uint64(untilUSec), .uint32(0)])
        } catch .refused(let error) where error.hasName(.unknownMethod) {
            return []
        }
        var traces: [HeartRateTrace] = []
        traces.reserveCapacity(entries.count)
        for entry in entries { traces.append(try HeartRateTrace(entry: entry)) }
        return traces
    }
}
