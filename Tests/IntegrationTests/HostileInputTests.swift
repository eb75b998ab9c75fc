import DBusKit
import Foundation
import ProcessHarness
import RestClient
import RestProtocol
import Testing

/// Every method of every interface, called with wrong types, out-of-range numbers, bad ids,
/// huge strings and dictionaries: each call is refused with InvalidArgs or LimitExceeded and a
/// message, and the daemon is unchanged afterwards.
@Suite("Hostile input", .serialized, .tags(.everyBus))
struct HostileInputTests {
    struct Case: CustomStringConvertible {
        let path: String
        let interface: String
        let member: String
        let arguments: [DBusValue]
        let expected: Set<String>
        let description: String
    }

    static let invalidArgs = RestErrorName.invalidArgs
    static let limitExceeded = RestErrorName.limitExceeded
    static let megabyte = String(repeating: "a", count: 1 << 20)

    static func manager(
        _ member: String, _ arguments: [DBusValue], _ what: String,
        expect: Set<String> = [invalidArgs]
    ) -> Case {
        Case(
            path: RestBus.managerPath, interface: RestBus.managerInterface, member: member, arguments: arguments,
            expected: expect, description: "Manager.\(member): \(what)")
    }

    static func timer(_ member: String, _ arguments: [DBusValue], _ what: String) -> Case {
        Case(
            path: RestBus.timerPath(id: "existing"), interface: RestBus.timerInterface, member: member,
            arguments: arguments, expected: [invalidArgs], description: "Timer.\(member): \(what)")
    }

    static func live(
        _ member: String, _ arguments: [DBusValue], _ what: String,
        expect: Set<String> = [invalidArgs]
    ) -> Case {
        Case(
            path: RestBus.livePath, interface: RestBus.liveInterface, member: member, arguments: arguments,
            expected: expect, description: "Live.\(member): \(what)")
    }

    static func options(_ entries: [String: DBusValue]) -> DBusValue { .vardict(entries) }

    static let hugeDictionary: DBusValue = .vardict(
        Dictionary(
            uniqueKeysWithValues: (0..<100_000).map {
                ("x_k\($0)", DBusValue.int32(Int32($0)))
            }))

    static let cases: [Case] = {
        var cases: [Case] = []
        let ninety = DBusValue.uint64(90_000_000)
        // Start: every argument wrong in turn.
        cases += [
            manager("Start", [], "no arguments"),
            manager("Start", [.int32(1), ninety, options([:])], "id of the wrong type"),
            manager("Start", [.string("a"), .int64(90_000_000), options([:])], "duration of the wrong type"),
            manager("Start", [.string("a"), ninety, .strings([])], "options of the wrong type"),
            manager("Start", [.string("a"), ninety], "options missing"),
            manager("Start", [.string("a"), ninety, options([:]), .int32(1)], "one argument too many"),
            manager("Start", [.string("a"), .uint64(0), options([:])], "zero duration"),
            manager("Start", [.string("a"), .uint64(999_999), options([:])], "duration under 1 s"),
            manager("Start", [.string("a"), .uint64(.max), options([:])], "duration 2^64-1"),
            manager("Start", [.string("a"), .uint64(86_400_000_001), options([:])], "duration over 24 h"),
            manager("Start", [.string("a/b"), ninety, options([:])], "an id with a slash"),
            manager("Start", [.string("../x"), ninety, options([:])], "an id walking up the tree"),
            manager("Start", [.string("a.b"), ninety, options([:])], "an id with a dot"),
            manager("Start", [.string("é"), ninety, options([:])], "a non-ASCII id"),
            manager("Start", [.string(String(repeating: "a", count: 65)), ninety, options([:])], "a 65-character id"),
            manager("Start", [.string(megabyte), ninety, options([:])], "a 1 MiB id"),
            manager("Start", [.string("a\u{7}"), ninety, options([:])], "an id with a control character"),
            manager("Start", [.string("a"), ninety, options(["label": .string(megabyte)])], "a 1 MiB label"),
            manager(
                "Start", [.string("a"), ninety, options(["next": .string("bell\u{7}")])], "a control character in next"),
            manager(
                "Start", [.string("a"), ninety, options(["label": .string("line\nbreak")])], "a newline in the label"),
            manager("Start", [.string("a"), ninety, options(["colour": .string("red")])], "an unknown option"),
            manager("Start", [.string("a"), ninety, options(["notify": .string("yes")])], "notify of the wrong type"),
            manager("Start", [.string("a"), ninety, options(["label": .int32(1)])], "label of the wrong type"),
            manager("Start", [.string("a"), ninety, hugeDictionary], "options with 100,000 entries"),
        ]
        for member in ["Pause", "Resume", "Restart", "Cancel"] {
            cases += [
                manager(member, [], "no id"),
                manager(member, [.uint32(7)], "an id of the wrong type"),
                manager(member, [.string("no/such")], "an invalid id"),
                manager(member, [.string(megabyte)], "a 1 MiB id"),
                manager(member, [.string("existing"), .string("extra")], "an extra argument"),
                timer(member, [.string("extra")], "an argument it does not take"),
            ]
        }
        cases += [
            manager("Adjust", [.string("existing"), .int64(0)], "zero delta"),
            manager("Adjust", [.string("existing"), .int64(.max)], "delta 2^63-1"),
            manager("Adjust", [.string("existing"), .int64(.min)], "delta -2^63"),
            manager("Adjust", [.string("existing"), .uint64(30_000_000)], "delta of the wrong type"),
            manager("Adjust", [.string("existing"), .int64(86_400_000_000)], "more than 24 h left"),
            timer("Adjust", [.int64(0)], "zero delta"),
            timer("Adjust", [.int64(.min)], "delta -2^63"),
            timer("Adjust", [.string("30")], "delta of the wrong type"),
        ]
        cases += [
            live("Update", [], "no fields"),
            live("Update", [.strings(["heart_rate"])], "fields of the wrong type"),
            live("Update", [options(["heart_rate": .int32(-1)])], "negative heart rate"),
            live("Update", [options(["heart_rate": .uint64(.max)])], "heart rate 2^64-1"),
            live("Update", [options(["heart_rate": .double(120)])], "heart rate as a double"),
            live("Update", [options(["progress_done": .int32(0), "progress_total": .int32(-1)])], "negative total"),
            live("Update", [options(["exercise": .string(megabyte)])], "a 1 MiB exercise"),
            live("Update", [options(["workout": .string("\u{1B}[2J")])], "an escape sequence"),
            live("Update", [options(["X_upper": .boolean(true)])], "a bad custom key"),
            live("Update", [options(["x_a": .structure([.int32(1)])])], "a struct value"),
            live("Update", [options(["x_a": .double(.infinity)])], "an infinite number"),
            live("Update", [hugeDictionary], "100,000 custom keys", expect: [limitExceeded, invalidArgs]),
            live("Subscribe", [.double(0)], "rate 0"),
            live("Subscribe", [.double(-1)], "negative rate"),
            live("Subscribe", [.double(.nan)], "NaN rate"),
            live("Subscribe", [.double(.infinity)], "infinite rate"),
            live("Subscribe", [.double(21)], "rate over 20 Hz"),
            live("Subscribe", [.int32(1)], "rate of the wrong type"),
            live("End", [.boolean(true)], "an argument it does not take"),
            live("Unsubscribe", [.int32(1)], "an argument it does not take"),
        ]
        // CompleteSet, Skip and the history: wrong types, out of range, huge.
        let existing = DBusValue.string("existing")
        func history(
            _ member: String, _ arguments: [DBusValue], _ what: String, expect: Set<String> = [invalidArgs]
        ) -> Case {
            Case(
                path: RestBus.historyPath, interface: RestBus.historyInterface, member: member, arguments: arguments,
                expected: expect, description: "History.\(member): \(what)")
        }
        cases += [
            manager("CompleteSet", [], "no arguments"),
            manager("CompleteSet", [existing, .int32(1), options([:])], "exercise of the wrong type"),
            manager("CompleteSet", [existing, .string("Squat"), .strings([])], "options of the wrong type"),
            manager("CompleteSet", [existing, .string(""), options([:])], "no exercise and no previous set"),
            manager("CompleteSet", [existing, .string(megabyte), options([:])], "a 1 MiB exercise name"),
            manager("CompleteSet", [existing, .string("Squat"), hugeDictionary], "100,000 unknown options"),
            manager("CompleteSet", [existing, .string("Squat"), options(["reps": .uint32(.max)])], "reps 2^32−1"),
            manager("CompleteSet", [existing, .string("Squat"), options(["reps": .int32(-1)])], "negative reps"),
            manager(
                "CompleteSet", [existing, .string("Squat"), options(["reps": .string("5")])], "reps of the wrong type"),
            manager(
                "CompleteSet", [existing, .string("Squat"), options(["weight_kg": .double(.infinity)])],
                "infinite weight"),
            manager("CompleteSet", [existing, .string("Squat"), options(["weight_kg": .double(-.nan)])], "NaN weight"),
            manager(
                "CompleteSet", [existing, .string("Squat"), options(["rest_usec": .uint64(.max)])], "rest 2^64−1 µs"),
            manager(
                "CompleteSet", [existing, .string("Squat"), options(["failed": .int32(1)])], "failed of the wrong type"),
            manager(
                "CompleteSet", [existing, .string("Squat"), options(["until_recovered": .string("yes")])],
                "until_recovered of the wrong type"),
            manager("Skip", [.int32(1)], "id of the wrong type"),
            manager("Skip", [.string("nope")], "no such timer", expect: [RestErrorName.noSuchTimer]),
            history(
                "Sets", [.uint64(0), .uint64(0), .string(""), .uint32(100_001)], "limit over 100,000",
                expect: [limitExceeded]),
            history(
                "SetRows", [.uint64(0), .uint64(0), .string(""), .uint32(100_001)], "limit over 100,000",
                expect: [limitExceeded]),
            history("SetRows", [.uint64(0), .uint64(0), .string("")], "no limit"),
            history("SetRows", [.uint64(0), .uint64(0), .uint32(10)], "no exercise (the window of an older restd)"),
            history(
                "Rests", [.uint64(0), .uint64(0), .string(""), .uint32(.max)], "limit 2^32−1", expect: [limitExceeded]),
            history("Sets", [.int64(0), .uint64(0), .string(""), .uint32(1)], "since of the wrong type"),
            history("SetRows", [.uint64(0), .uint64(0), .string(megabyte), .uint32(1)], "a 1 MiB exercise name"),
            history("Stats", [.uint64(0), .uint64(0), .string(megabyte)], "a 1 MiB exercise name"),
            history("Exercises", [.string("x")], "an argument too many"),
        ]
        // Properties, on each object.
        for path in [RestBus.managerPath, RestBus.timerPath(id: "existing"), RestBus.livePath] {
            cases.append(
                Case(
                    path: path, interface: "org.freedesktop.DBus.Properties", member: "Get",
                    arguments: [.int32(1), .int32(2)], expected: [invalidArgs],
                    description: "Properties.Get on \(path): wrong types"))
            cases.append(
                Case(
                    path: path, interface: "org.freedesktop.DBus.Properties", member: "GetAll",
                    arguments: [.string(megabyte), .string("x")], expected: [invalidArgs],
                    description: "Properties.GetAll on \(path): too many arguments"))
        }
        return cases
    }()

    @Test("each hostile call is refused with a message, and nothing changes")
    func hostileCallsAreRefused() throws {
        let daemon = try RunningDaemon()
        try daemon.client.start(id: "existing", durationUSec: 3_600_000_000, label: "Squat")
        try daemon.client.updateLive(["exercise": .string("Squat")])
        let timersBefore = try daemon.client.timers().map {
            [$0.id, $0.state, $0.label, String($0.durationUSec), String($0.endsAtUSec)]
        }
        let liveBefore = try daemon.client.liveFields()

        let connection = try Connection.open(address: daemon.bus.address)
        try Self.expectRefused(Self.cases, by: RestBus.name, on: connection)
        #expect(daemon.restd.isRunning, "\(daemon.restd.log())")
        let timersAfter = try daemon.client.timers().map {
            [$0.id, $0.state, $0.label, String($0.durationUSec), String($0.endsAtUSec)]
        }
        #expect(timersAfter == timersBefore)
        #expect(try daemon.client.liveFields() == liveBefore)
    }

    @Test("unknown objects, interfaces and members are refused by name, and restd stays up")
    func unknownTargets() throws {
        let daemon = try RunningDaemon()
        let connection = try Connection.open(address: daemon.bus.address)
        let targets: [(String, String?, String, String)] = [
            ("/io/restd/Rest1/timer/nope", RestBus.timerInterface, "Pause", "org.freedesktop.DBus.Error.UnknownObject"),
            ("/nowhere", nil, "Ping2", "org.freedesktop.DBus.Error.UnknownObject"),
            (RestBus.managerPath, "org.example.Nope", "Start", "org.freedesktop.DBus.Error.UnknownInterface"),
            (RestBus.managerPath, RestBus.managerInterface, "Explode", "org.freedesktop.DBus.Error.UnknownMethod"),
            (RestBus.managerPath, nil, "Explode", "org.freedesktop.DBus.Error.UnknownMethod"),
        ]
        for (path, interface, member, expected) in targets {
            let message = try Message.methodCall(
                destination: RestBus.name, path: path, interface: interface, member: member)
            do {
                _ = try connection.callBlocking(message, timeoutMilliseconds: 30_000)
                Issue.record("\(path) \(member) was accepted")
            } catch {
                #expect(error.name == expected, "\(path) \(member): \(error)")
            }
        }
        let ping = try Message.methodCall(
            destination: RestBus.name, path: "/", interface: "org.freedesktop.DBus.Peer", member: "Ping")
        _ = try connection.callBlocking(ping, timeoutMilliseconds: 30_000)
    }

    // MARK: The MPRIS player

    static func player(
        _ member: String, _ arguments: [DBusValue], _ what: String,
        expect: Set<String> = [invalidArgs]
    ) -> Case {
        Case(
            path: MediaPlayerBus.path, interface: MediaPlayerBus.playerInterface, member: member, arguments: arguments,
            expected: expect, description: "Player.\(member): \(what)")
    }

    /// What a media widget may send: wrong types, a track that is not the current one, seeks
    /// beyond ±24 h, positions outside the rest.
    static let playerCases: [Case] = {
        let track = DBusValue.objectPath(RestBus.timerPath(id: "default"))
        var cases = [
            player("Seek", [], "no offset"),
            player("Seek", [.string("30")], "an offset of the wrong type"),
            player("Seek", [.uint64(30_000_000)], "an unsigned offset"),
            player("Seek", [.int64(86_400_000_001)], "an offset over +24 h"),
            player("Seek", [.int64(-86_400_000_001)], "an offset under -24 h"),
            player("Seek", [.int64(.max)], "offset 2^63-1"),
            player("Seek", [.int64(.min)], "offset -2^63"),
            player("SetPosition", [.string(RestBus.timerPath(id: "default")), .int64(0)], "a track id as a string"),
            player("SetPosition", [track], "no position"),
            player(
                "SetPosition", [.objectPath(RestBus.timerPath(id: "other")), .int64(0)], "another timer's track id"),
            player(
                "SetPosition", [.objectPath("/org/mpris/MediaPlayer2/TrackList/NoTrack"), .int64(0)], "the NoTrack id"),
            player("SetPosition", [track, .int64(-1)], "a negative position"),
            player("SetPosition", [track, .int64(.min)], "position -2^63"),
            player("SetPosition", [track, .int64(3_600_000_001)], "a position past the end"),
            player("SetPosition", [track, .int64(.max)], "position 2^63-1"),
            player(
                "OpenUri", [.string("file:///etc/passwd")], "a URI",
                expect: ["org.freedesktop.DBus.Error.NotSupported"]),
            player("Play", [.boolean(true)], "an argument it does not take"),
            player("Next", [.string("x")], "an argument it does not take"),
            Case(
                path: MediaPlayerBus.path, interface: MediaPlayerBus.rootInterface, member: "Quit",
                arguments: [.int32(1)], expected: [invalidArgs], description: "MediaPlayer2.Quit: an argument"),
        ]
        for (property, value) in [
            ("Rate", DBusValue.double(2)), ("Volume", .double(0)), ("PlaybackStatus", .string("Stopped")),
        ] {
            cases.append(
                Case(
                    path: MediaPlayerBus.path, interface: "org.freedesktop.DBus.Properties", member: "Set",
                    arguments: [.string(MediaPlayerBus.playerInterface), .string(property), .variant(value)],
                    expected: ["org.freedesktop.DBus.Error.PropertyReadOnly"],
                    description: "Properties.Set of \(property)"))
        }
        cases.append(
            Case(
                path: MediaPlayerBus.path, interface: "org.freedesktop.DBus.Properties", member: "Get",
                arguments: [.int32(1), .int32(2)], expected: [invalidArgs],
                description: "Properties.Get on the player: wrong types"))
        return cases
    }()

    @Test(
        "each hostile call to the MPRIS player is refused with the standard error and a message, and the rest is unchanged"
    )
    func hostilePlayerCallsAreRefused() throws {
        let daemon = try RunningDaemon(config: "[mpris]\nenabled = true\n")
        let (bus, restd, client) = (daemon.bus, daemon.restd, daemon.client)
        try client.start(id: "default", durationUSec: 3_600_000_000, label: "Squat")
        try client.pause(id: "default")
        let before = try client.timer(id: "default")
        try waitUntil("\(MediaPlayerBus.name) to be owned") {
            busctl(bus, "status", MediaPlayerBus.name).succeeded
        }

        let connection = try Connection.open(address: bus.address)
        try Self.expectRefused(Self.playerCases, by: MediaPlayerBus.name, on: connection)
        #expect(restd.isRunning, "\(restd.log())")
        let after = try client.timer(id: "default")
        #expect(
            [after.state, after.label, String(after.durationUSec), String(after.remainingUSec)]
                == [before.state, before.label, String(before.durationUSec), String(before.remainingUSec)])
    }

    /// Sends each case to `destination` and expects its refusal: an expected error name, with a
    /// message, and a short one.
    static func expectRefused(_ cases: [Case], by destination: String, on connection: Connection) throws {
        for hostile in cases {
            let message = try Message.methodCall(
                destination: destination, path: hostile.path, interface: hostile.interface, member: hostile.member)
            try message.append(hostile.arguments)
            do {
                _ = try connection.callBlocking(message, timeoutMilliseconds: 30_000)
                Issue.record("\(hostile) was accepted")
            } catch {
                #expect(hostile.expected.contains(error.name), "\(hostile): \(error)")
                #expect(!error.message.isEmpty, "\(hostile): no message")
                #expect(error.message.utf8.count < 1000, "\(hostile): message of \(error.message.utf8.count) bytes")
            }
        }
    }
}
