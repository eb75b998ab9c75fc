import DBusKit
import RestClient
import RestProtocol
import Testing

/// Every set in restd's history read both ways: through History.Sets (dictionaries, the general
/// form) and through History.SetRows (structures, what `restctl history` reads). Each test that
/// leaves sets of a new kind behind (a recovery, an open rest, no rest) checks that the two agree.
func expectSetRowsMatchSets(
    _ client: RestdClient, count: Int, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let reply = try client.call(
        path: RestBus.historyPath, interface: RestBus.historyInterface, member: HistoryMember.sets,
        [.uint64(0), .uint64(0), .string(""), .uint32(0)])
    let entries = try #require(reply.first?.arrayElements, "Sets: \(reply)", sourceLocation: sourceLocation)
    var fromSets: [HistorySet] = []
    for entry in entries {
        let fields = try #require(entry.vardictEntries, "\(entry)", sourceLocation: sourceLocation)
        fromSets.append(try HistorySet(entry: fields))
    }
    let fromRows = try client.historySets(sinceUSec: 0, untilUSec: 0)
    #expect(fromSets.count == count, "\(fromSets)", sourceLocation: sourceLocation)
    #expect(fromRows == fromSets, sourceLocation: sourceLocation)
}
