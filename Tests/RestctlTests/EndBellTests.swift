import DBusKit
import RestClient
import RestProtocol
import Testing

@testable import restctl

/// When `start --wait` and `wait` ring the terminal's bell at the end: only when restd plays
/// nothing for the rest.
@Suite struct EndBellTests {
    private func expired(sound: Bool, ringing: Bool) throws -> TimerSnapshot {
        try TimerSnapshot(properties: [
            TimerProperty.id: .string("default"), TimerProperty.label: .string(""),
            TimerProperty.next: .string(""), TimerProperty.state: .string("expired"),
            TimerProperty.durationUSec: .uint64(90_000_000), TimerProperty.startedAtUSec: .uint64(1),
            TimerProperty.endsAtUSec: .uint64(90_000_001), TimerProperty.remainingUSec: .uint64(0),
            TimerProperty.expiredAtUSec: .uint64(90_000_001), TimerProperty.sound: .boolean(sound),
            TimerProperty.ringing: .boolean(ringing),
        ])
    }

    @Test("a rest without sound: the bell, whatever the sound server")
    func noSound() throws {
        for server in [SoundServerState.available, .missing, .unknown, nil] {
            #expect(RestWait.restdIsSilent(at: try expired(sound: false, ringing: false), soundServer: server))
        }
    }

    @Test("no sound server: the bell, ringing or not")
    func missingServer() throws {
        #expect(RestWait.restdIsSilent(at: try expired(sound: true, ringing: true), soundServer: .missing))
        #expect(RestWait.restdIsSilent(at: try expired(sound: true, ringing: false), soundServer: .missing))
    }

    @Test("no sound server needed by the end ([sound] enabled false): the bell; still connecting: none")
    func unknownServer() throws {
        #expect(RestWait.restdIsSilent(at: try expired(sound: true, ringing: false), soundServer: .unknown))
        #expect(!RestWait.restdIsSilent(at: try expired(sound: true, ringing: true), soundServer: .unknown))
    }

    @Test("restd's alarm heard, or a restd too old to say: no bell")
    func heard() throws {
        #expect(!RestWait.restdIsSilent(at: try expired(sound: true, ringing: true), soundServer: .available))
        #expect(!RestWait.restdIsSilent(at: try expired(sound: true, ringing: false), soundServer: .available))
        #expect(!RestWait.restdIsSilent(at: try expired(sound: true, ringing: true), soundServer: nil))
    }
}
