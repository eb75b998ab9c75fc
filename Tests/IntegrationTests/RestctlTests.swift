import Foundation
import ProcessHarness
import RestClient
import Testing

/// restctl against the real restd on a private bus: whole outputs, exit statuses, error lines.
///
/// Times that depend on the clock are checked on paused timers (frozen, so exact) or with
/// patterns that allow for a slow machine; nothing here sleeps.
@Suite("restctl", .serialized, .tags(.calendar))
struct RestctlTests {
    static let squat = "Squat · Next: Bench press"

    // MARK: Commands and their output

    @Test("start prints the new timer; status shows it; status --json has every field in order")
    func startAndStatus() throws {
        let daemon = try RunningDaemon()
        // The test bus has no notification server: start says so once, status every time.
        let note = NotificationServerTests.note
        let start = daemon.run("start", "90", "--label", "Squat", "--next", "Bench press")
        #expect(start.status == 0 && start.stderr == note, "\(start)\n\(daemon.log())")
        #expect(matches(start.stdout, #"default  running  1:(30|2\d)  Squat · Next: Bench press\n"#), "\(start)")

        let status = daemon.run("status")
        #expect(status.status == 0 && status.stderr == note, "\(status)")
        #expect(matches(status.stdout, #"default  running  1:(30|2\d)  Squat · Next: Bench press\n"#), "\(status)")

        let before = Date()
        let json = daemon.run("status", "--json")
        #expect(json.status == 0 && json.stderr == note, "\(json)")
        let iso = #""\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z""#
        #expect(
            matches(
                json.stdout,
                #"\{"id":"default","state":"running","label":"Squat","next":"Bench press","notify":true,"#
                    + #""duration_usec":90000000,"warn_usec":0,"remaining_usec":\d+,"started_at":"# + iso
                    + #","ends_at":"# + iso
                    + #","expired_at":null,"rest_source":null,"until_recovered":false,"end_reason":null,"recovered_bpm":null,"sound":true,"ringing":false,"#
                    + #""notification_server":"missing"\}\n"#
            ), "\(json)")
        let object = try #require(jsonObject(json.stdout), "\(json)")
        let remaining = try #require(object["remaining_usec"] as? Int)
        #expect(remaining > 60_000_000 && remaining <= 90_000_000, "\(json)")
        let started = try #require(instant(object["started_at"]), "\(json)")
        let ends = try #require(instant(object["ends_at"]), "\(json)")
        #expect(abs(ends.timeIntervalSince(started) - 90) < 0.002, "\(json)")
        #expect(abs(started.timeIntervalSince(before)) < 60, "started_at is not the wall clock: \(json)")
    }

    @Test("start --warn sets the pre-alert, shown as warn_usec by status --json")
    func startWarn() throws {
        let daemon = try RunningDaemon()
        #expect(daemon.run("start", "90", "--warn", "10").status == 0)
        let object = try #require(jsonObject(daemon.run("status", "--json").stdout))
        #expect(object["warn_usec"] as? Int == 10_000_000, "\(object)")
        let tooLong = daemon.run("start", "30", "--warn", "1m")
        #expect(tooLong.status != 0 && !tooLong.stderr.isEmpty, "\(tooLong)")
    }

    @Test("start without a duration runs 90 s; --no-notify and --id are passed on")
    func startDefaults() throws {
        let daemon = try RunningDaemon()
        let start = daemon.run("start", "--id", "plank", "--no-notify")
        #expect(matches(start.stdout, #"plank  running  1:(30|2\d)\n"#), "\(start)\n\(daemon.log())")
        let json = daemon.run("status", "--id", "plank", "--json")
        let object = try #require(jsonObject(json.stdout), "\(json)")
        #expect(object["duration_usec"] as? Int == 90_000_000, "\(json)")
        #expect(object["notify"] as? Bool == false, "\(json)")
        #expect(object["label"] is NSNull && object["next"] is NSNull, "unset texts are null: \(json)")
        #expect(daemon.run("status").status == 1, "the default timer was not started")
    }

    @Test("pause freezes the time; add and sub change it exactly; resume, restart and cancel")
    func lifecycle() throws {
        let daemon = try RunningDaemon()
        #expect(daemon.run("start", "90", "--label", "Squat", "--next", "Bench press").succeeded, "\(daemon.log())")

        let pause = daemon.run("pause")
        #expect(pause.status == 0 && pause.stderr.isEmpty, "\(pause)")
        #expect(matches(pause.stdout, #"default  paused   1:(30|2\d)  Squat · Next: Bench press\n"#), "\(pause)")

        // Paused, the time left is frozen: every reading from here on is exact.
        let left = try remainingUSec(daemon)
        #expect(left > 60_000_000 && left < 90_000_000)
        #expect(daemon.run("status").stdout == "default  paused   \(TimeFormat.countdown(usec: left))  \(Self.squat)\n")
        let frozen = daemon.run("status", "--json")
        #expect(frozen.stdout == daemon.run("status", "--json").stdout)
        #expect(frozen.stdout.contains(#","remaining_usec":\#(left),"#), "\(frozen)")
        #expect(
            frozen.stdout.hasSuffix(
                #","ends_at":null,"expired_at":null,"rest_source":null,"until_recovered":false,"end_reason":null,"recovered_bpm":null,"sound":true,"ringing":false,"#
                    + #""notification_server":"missing"}"# + "\n"), "\(frozen)")

        let add = daemon.run("add", "30")
        #expect(add.status == 0 && add.stderr.isEmpty, "\(add)")
        #expect(
            add.stdout == "default  paused   \(TimeFormat.countdown(usec: left + 30_000_000))  \(Self.squat)\n",
            "\(add)")
        #expect(try remainingUSec(daemon) == left + 30_000_000)

        let sub = daemon.run("sub", "10")
        #expect(
            sub.stdout == "default  paused   \(TimeFormat.countdown(usec: left + 20_000_000))  \(Self.squat)\n",
            "\(sub)")
        #expect(try remainingUSec(daemon) == left + 20_000_000)

        let add2 = daemon.run("add", "1:30")
        #expect(
            add2.stdout == "default  paused   \(TimeFormat.countdown(usec: left + 110_000_000))  \(Self.squat)\n",
            "\(add2)")

        let resume = daemon.run("resume")
        #expect(resume.status == 0 && resume.stderr.isEmpty, "\(resume)")
        #expect(matches(resume.stdout, #"default  running  [0-3]:\d\d  Squat · Next: Bench press\n"#), "\(resume)")
        #expect(try remainingUSec(daemon) <= left + 110_000_000)

        let restart = daemon.run("restart")
        #expect(restart.status == 0 && restart.stderr.isEmpty, "\(restart)")
        #expect(matches(restart.stdout, #"default  running  1:(30|2\d)  Squat · Next: Bench press\n"#), "\(restart)")

        let cancel = daemon.run("cancel")
        #expect(cancel.status == 0 && cancel.stdout == "cancelled default\n" && cancel.stderr.isEmpty, "\(cancel)")
        let gone = daemon.run("status")
        #expect(gone.status == 1 && gone.stdout.isEmpty, "\(gone)")
        #expect(gone.stderr == "restctl: no timer \"default\"\n", "\(gone)")
    }

    @Test("sub down to nothing expires the timer at once; add starts a new run")
    func expiry() throws {
        let daemon = try RunningDaemon()
        #expect(daemon.run("start", "1m", "--label", "Squat").succeeded, "\(daemon.log())")
        let sub = daemon.run("sub", "2m")
        #expect(sub.status == 0, "\(sub)\n\(daemon.log())")
        #expect(matches(sub.stdout, #"default  expired  0:00 \(\+0:0\d\)  Squat\n"#), "\(sub)")
        let json = daemon.run("status", "--json")
        let object = try #require(jsonObject(json.stdout), "\(json)")
        #expect(object["state"] as? String == "expired" && object["remaining_usec"] as? Int == 0, "\(json)")
        #expect(instant(object["expired_at"]) != nil && object["ends_at"] is NSNull, "\(json)")

        let shorten = daemon.run("sub", "10")
        #expect(shorten.status == 1 && shorten.stdout.isEmpty, "\(shorten)")
        #expect(
            shorten.stderr
                == "restctl: timer \"default\" has expired, so there is no time to take off; add time or restart it\n",
            "\(shorten)")

        let add = daemon.run("add", "30")
        #expect(matches(add.stdout, #"default  running  0:(30|2\d)  Squat\n"#), "\(add)")
    }

    @Test("list shows every timer by id, columns aligned; nothing or [] when there are none")
    func list() throws {
        let daemon = try RunningDaemon()
        let empty = daemon.run("list")
        #expect(empty.status == 0 && empty.stdout.isEmpty && empty.stderr.isEmpty, "\(empty)\n\(daemon.log())")
        let emptyJSON = daemon.run("list", "--json")
        #expect(emptyJSON.status == 0 && emptyJSON.stdout == "[]\n", "\(emptyJSON)")

        #expect(daemon.run("start", "2m", "--id", "plank_2", "--next", "Rows").succeeded)
        #expect(daemon.run("pause", "--id", "plank_2").succeeded)
        #expect(daemon.run("start", "1:02:03", "--id", "a", "--label", "Nap").succeeded)
        #expect(daemon.run("pause", "--id", "a").succeeded)
        let plank = try remainingUSec(daemon, id: "plank_2")
        let nap = try remainingUSec(daemon, id: "a")

        let list = daemon.run("list")
        #expect(list.status == 0 && list.stderr.isEmpty, "\(list)")
        #expect(
            list.stdout == """
                a        paused   \(TimeFormat.countdown(usec: nap))  Nap
                plank_2  paused   \(TimeFormat.countdown(usec: plank))  Next: Rows

                """, "\(list)")
        #expect(
            matches(list.stdout, #"a        paused   1:0[12]:\d\d  Nap\nplank_2  paused   [12]:\d\d  Next: Rows\n"#))

        let json = daemon.run("list", "--json")
        let array = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]], "\(json)")
        #expect(array.map { $0["id"] as? String } == ["a", "plank_2"], "\(json)")
        #expect(array.map { $0["remaining_usec"] as? Int } == [Int(nap), Int(plank)], "\(json)")
        #expect(array.map { $0["state"] as? String } == ["paused", "paused"], "\(json)")
        #expect(array.map { $0["label"] as? String } == ["Nap", nil] && array[1]["label"] is NSNull, "\(json)")
        #expect(array.map { $0["next"] as? String } == [nil, "Rows"] && array[0]["next"] is NSNull, "\(json)")
        #expect(array.map { $0["duration_usec"] as? Int } == [3_723_000_000, 120_000_000], "\(json)")
        #expect(
            json.stdout.hasPrefix(
                #"[{"id":"a","state":"paused","label":"Nap","next":null,"notify":true,"duration_usec":3723000000,"#),
            "\(json)")
    }

    @Test("texts travel and come back escaped in JSON")
    func texts() throws {
        let daemon = try RunningDaemon()
        let label = #"say "hi" \ Étirement ☕"#
        #expect(daemon.run("start", "90", "--label", label).succeeded, "\(daemon.log())")
        #expect(daemon.run("pause").succeeded)
        let json = daemon.run("status", "--json")
        #expect(json.stdout.contains(#""label":"say \"hi\" \\ Étirement ☕","next":null,"#), "\(json)")
        #expect(jsonObject(json.stdout)?["label"] as? String == label, "\(json)")
        #expect(daemon.run("status").stdout.hasSuffix("  \(label)\n"))
    }

    @Test("--json on every command that prints a timer: the object status --json prints, but notification_server")
    func jsonEverywhere() throws {
        let daemon = try RunningDaemon()
        // Said once, by the first start (the test bus has no notification server).
        #expect(daemon.run("start", "90", "--label", "Squat").stderr == NotificationServerTests.note)
        let object =
            #"\{"id":"default","state":"(running|paused)","label":"Squat","next":null,"notify":true,"duration_usec":\d+,"#
            + #""warn_usec":0,"remaining_usec":\d+,"started_at":"[^"]+","ends_at":("[^"]+"|null),"expired_at":null,"rest_source":null,"until_recovered":false,"end_reason":null,"recovered_bpm":null,"sound":true,"ringing":false\}\n"#
        for args in [
            ["start", "90", "--label", "Squat", "--json"], ["pause", "--json"], ["add", "30", "--json"],
            ["sub", "10", "--json"], ["resume", "--json"], ["toggle", "--json"], ["restart", "--json"],
        ] {
            let result = daemon.run(args)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result)\n\(daemon.log())")
            #expect(matches(result.stdout, object), "\(result)")
        }
    }

    @Test("status --json on a missing timer prints null (for jq) and still exits 1 with the sentence")
    func statusJSONNull() throws {
        let daemon = try RunningDaemon()
        let result = daemon.run("status", "--json", "--id", "nope")
        #expect(result.status == 1 && result.stdout == "null\n", "\(result)")
        #expect(result.stderr == "restctl: no timer \"nope\"\n", "\(result)")
        #expect(daemon.run("status", "--id", "nope").stdout.isEmpty, "text mode prints nothing")
    }

    @Test("cancel --all removes every timer; list --expired and clear deal with the ones that are over")
    func cancelAllAndClear() throws {
        let daemon = try RunningDaemon()
        for id in ["a", "b", "c"] { #expect(daemon.run("start", "90", "--id", id).succeeded, "\(daemon.log())") }
        #expect(daemon.run("sub", "2m", "--id", "b").succeeded)
        #expect(daemon.run("pause", "--id", "c").succeeded)

        let expired = daemon.run("list", "--expired")
        #expect(expired.status == 0 && matches(expired.stdout, #"b  expired  0:00 \(\+0:0\d\)\n"#), "\(expired)")
        let expiredJSON = daemon.run("list", "--expired", "--json")
        #expect(
            expiredJSON.stdout.hasPrefix(#"[{"id":"b","state":"expired""#)
                && !expiredJSON.stdout.contains(#""id":"a""#),
            "\(expiredJSON)")

        let clear = daemon.run("clear")
        #expect(clear.status == 0 && clear.stdout.isEmpty && clear.stderr.isEmpty, "\(clear)")
        #expect(daemon.run("list").stdout.split(separator: "\n").map { $0.prefix(1) } == ["a", "c"], "only b was over")
        #expect(daemon.run("list", "--expired").stdout.isEmpty)

        let all = daemon.run("cancel", "--all")
        #expect(all.status == 0 && all.stdout == "cancelled a\ncancelled c\n" && all.stderr.isEmpty, "\(all)")
        #expect(daemon.run("list").stdout.isEmpty, "\(daemon.run("list"))")
        // Nothing to cancel is not a failure, and is said.
        let none = daemon.run("cancel", "--all")
        #expect(none.succeeded && none.stdout == "no timers to cancel\n", "\(none)")
    }

    @Test("ids with a dash: restctl, busctl and gdbus see the same timer at its escaped path")
    func dashedIDs() throws {
        let daemon = try RunningDaemon()
        let start = daemon.run("start", "90", "--id", "bench-press", "--label", "Bench")
        #expect(start.status == 0 && start.stdout.hasPrefix("bench-press  running  "), "\(start)\n\(daemon.log())")
        #expect(daemon.run("start", "90", "--id", "bench_2dpress").succeeded, "a look-alike id is another timer")
        let path = "/io/restd/Rest1/timer/bench_2dpress"
        let id = busctl(daemon.bus, "get-property", "io.restd.Rest1", path, "io.restd.Rest1.Timer", "Id")
        #expect(id.output == #"s "bench-press""#, "\(id)")
        let label = gdbus(
            daemon.bus, "call", "--dest", "io.restd.Rest1", "--object-path", path,
            "--method", "org.freedesktop.DBus.Properties.Get", "io.restd.Rest1.Timer", "Label")
        #expect(label.output == "(<'Bench'>,)", "\(label)")
        let tree = busctl(daemon.bus, "tree", "io.restd.Rest1", "--list")
        #expect(
            tree.stdout.contains(path + "\n") && tree.stdout.contains("/io/restd/Rest1/timer/bench_5f2dpress\n"),
            "\(tree)")
        // Start through the bus returns the escaped path; a method on that object acts on the timer.
        let started = busctl(
            daemon.bus, "call", "io.restd.Rest1", "/io/restd/Rest1", "io.restd.Rest1.Manager", "Start",
            "sta{sv}", "leg-day", "60000000", "0")
        #expect(started.output == #"o "/io/restd/Rest1/timer/leg_2dday""#, "\(started)")
        #expect(
            busctl(
                daemon.bus, "call", "io.restd.Rest1", "/io/restd/Rest1/timer/leg_2dday", "io.restd.Rest1.Timer",
                "Pause"
            ).succeeded)
        #expect(daemon.run("status", "--id", "leg-day").stdout.hasPrefix("leg-day  paused   "))
        #expect(daemon.run("cancel", "--id", "bench-press").succeeded)
        #expect(busctl(daemon.bus, "get-property", "io.restd.Rest1", path, "io.restd.Rest1.Timer", "Id").status != 0)
    }

    // MARK: Errors

    @Test("restd's refusals: its sentence on one line, exit 1, nothing on stdout")
    func refusals() throws {
        let daemon = try RunningDaemon()
        for args in [
            ["pause", "--id", "nope"], ["status", "--id", "nope"], ["cancel", "--id", "nope"],
            ["add", "30", "--id", "nope"], ["restart", "--id", "nope"],
        ] {
            let result = restctl(daemon.bus, args)
            #expect(result.status == 1 && result.stdout.isEmpty, "\(result)")
            #expect(result.stderr == "restctl: no timer \"nope\"\n", "\(result)")
        }
        // More than 24 h left: restd's sentence, rounded to what a person reads, says how much would do.
        #expect(daemon.run("start", "23h", "--id", "nap").succeeded)
        let tooMuch = daemon.run("add", "2h", "--id", "nap")
        #expect(tooMuch.status == 1 && tooMuch.stdout.isEmpty, "\(tooMuch)")
        #expect(
            tooMuch.stderr
                == "restctl: timer \"nap\" would have 25 h left, and a timer may have at most 24 h; add at most 1 h\n",
            "\(tooMuch)")
        #expect(!tooMuch.stderr.contains("refusing"))

        let control = daemon.run("start", "--label", "a\nb")
        #expect(control.status == 64 && control.stdout.isEmpty, "\(control)")
        #expect(control.stderr.hasPrefix("restctl: --label contains a control character"), "\(control)")
        #expect(control.stderr.filter { $0 == "\n" }.count == 1, "\(control)")
    }

    @Test(
        "argument problems exit 64 with a sentence, before anything reaches the bus",
        arguments: [
            (["start", "1x"], #"restctl: duration "1x" is not understood; give "#),
            (["start", "1:75"], #"restctl: duration "1:75" has 75 seconds; after a colon use 00 to 59"#),
            (["add", "0"], #"restctl: duration "0" is zero; give at least 1 second"#),
            (["sub", ""], "restctl: duration is empty; give "),
            (["status", "--id", "x.y"], #"restctl: timer id "x.y" is invalid: use 1 to 64 characters"#),
            (["pause", "--id", "a/b"], #"restctl: timer id "a/b" is invalid"#),
            (
                ["add"],
                "restctl: missing expected argument '<duration>'\nUsage: restctl add <duration> [--id <id>] [--json]\n"
            ),
            (["frobnicate"], "restctl: unknown command 'frobnicate'; the commands are start, "),
        ])
    func usageErrors(args: [String], stderrPrefix: String) throws {
        // No restd at all: a usage error must not even try to connect.
        let bus = try TestBus()
        let result = restctl(bus, args)
        #expect(result.status == 64 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.hasPrefix(stderrPrefix), "\(result)")
        #expect(!result.stderr.contains("restd is not running"), "\(result)")
    }

    @Test(
        "no restd on the bus: one sentence on stderr, exit 69",
        arguments: [
            ["status"], ["list"], ["list", "--json"], ["start"], ["cancel"], ["add", "30", "--id", "x"],
        ])
    func noDaemon(args: [String]) throws {
        let bus = try TestBus()
        let runtime = try TempDirectory(prefix: "restctl-runtime")  // no systemd user manager in it
        let result = restctl(bus, args, environment: ["XDG_RUNTIME_DIR": runtime.path])
        #expect(result.status == 69 && result.stdout.isEmpty, "\(result)")
        #expect(
            result.stderr == "restctl: restd is not running on the session bus; start it: "
                + "run 'restd' (in another terminal, or as 'restd &')\n", "\(result)")
    }

    @Test("no bus at all: one sentence on stderr, exit 69")
    func noBus() throws {
        let dir = try TempDirectory(prefix: "restctl-nobus")
        let executable = try BuildProducts.executable("restctl")
        let result = Command.run(
            [executable, "status"],
            environment: [
                "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(dir.path("missing"))",
                "XDG_RUNTIME_DIR": dir.path,
            ])
        #expect(result.status == 69 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.hasPrefix("restctl: cannot reach the D-Bus session bus ("), "\(result)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(result)")
    }

    @Test("restd going away between two commands is reported, not crashed on")
    func daemonGone() throws {
        let daemon = try RunningDaemon()
        #expect(daemon.run("start", "90").succeeded, "\(daemon.log())")
        daemon.restd.kill9()
        let result = daemon.run("status")
        #expect(result.status == 69 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.hasPrefix("restctl: restd is not running on the session bus;"), "\(result)")
    }

    // MARK: Help and version

    @Test("--help lists every command")
    func help() throws {
        let bus = try TestBus()
        let result = restctl(bus, ["--help"], environment: ["COLUMNS": "80"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        #expect(
            result.stdout == """
                OVERVIEW: Control the rest timers of restd.

                Commands that act on a timer take --id (default: default); an id is 1 to 64 of
                A-Z, a-z, 0-9, _ and -. A duration is 90, 90s, 1m30s, 2min, 1.5m or 1:30 (every
                form: TIMERS AND DURATIONS in man restctl); a rest is 1 s to 24 h. Commands
                that print a timer take --json.

                Exit status: 0 success; 1 refused by restd; 64 a usage error; 69 restd
                unreachable; 76 a reply that makes no sense (restctl(1) says when each is
                given).

                USAGE: restctl <subcommand>

                OPTIONS:
                  --version               Show the version.
                  -h, --help              Show help information.

                SUBCOMMANDS:
                  start                   Start (or replace) a timer.
                  pause                   Pause a running timer.
                  resume                  Resume a paused timer.
                  toggle                  Pause or resume a timer, or start one.
                  add                     Add time to a timer.
                  sub                     Take time off a timer.
                  restart                 Run a timer again for its original duration.
                  cancel                  Remove a timer, or every timer with --all.
                  clear                   Remove the timers that are over.
                  status                  Show one timer.
                  list                    Show every timer, one line each.
                  wait                    Wait until a timer's rest is over.
                  live                    Send live fields (heart rate, progress) to restd.
                  watch                   Print the timer and live fields as they change.
                  sensors                 Show the Bluetooth heart-rate straps restd sees.
                  set                     Mark a set done and start the rest that follows it.
                  skip                    End the rest now, on purpose.
                  silence                 Stop the alarm of a rest that is over.
                  history                 Show the sets done; delete, edit or rename them.
                  stats                   Show whether the rests taken match those planned.
                  records                 Show each exercise's records.
                  undo                    Take back the last set recorded.
                  import                  Import a Strong, Hevy or FitNotes export.
                  report                  Write a training report: one HTML page of charts.
                  workout                 Follow a workout plan, set by set.
                  reload                  Have restd read config.toml again.

                  See 'restctl help <subcommand>' for detailed help.

                """, "\(result)")
    }

    @Test("start --help shows its arguments and the shared --id")
    func startHelp() throws {
        let bus = try TestBus()
        let result = restctl(bus, ["start", "--help"], environment: ["COLUMNS": "80"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.contains(
                "USAGE: restctl start [<duration>] [--label <text>] [--next <text>] [--no-notify] [--no-sound] [--warn <duration>] [--wait] [--id <id>] [--json]\n"
            ), "\(result)")
        #expect(
            result.stdout.contains("  --id <id>               The timer to act on. (default: default)\n"), "\(result)")
    }

    @Test("--version prints the protocol version")
    func version() throws {
        let bus = try TestBus()
        let result = restctl(bus, "--version")
        #expect(result.status == 0 && result.stdout == "\(RestdClient.clientVersion)\n", "\(result)")
    }

    // MARK: Helpers

    /// `remaining_usec` of a timer, from `status --json`.
    private func remainingUSec(_ daemon: RunningDaemon, id: String = "default") throws -> UInt64 {
        let json = daemon.run("status", "--json", "--id", id)
        let object = try #require(jsonObject(json.stdout), "\(json)")
        let value = try #require(object["remaining_usec"] as? Int, "\(json)")
        return UInt64(value)
    }
}

/// `text` matches `pattern` as a whole.
private func matches(_ text: String, _ pattern: String) -> Bool {
    guard let regex = try? Regex(pattern) else { return false }
    return text.wholeMatch(of: regex) != nil
}

/// `text` as a JSON object, or nil when it is not one.
private func jsonObject(_ text: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
}

/// An ISO 8601 instant with milliseconds, or nil.
private func instant(_ value: Any?) -> Date? {
    guard let text = value as? String else { return nil }
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text)
}
