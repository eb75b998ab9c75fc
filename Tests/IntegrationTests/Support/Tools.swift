import Foundation

// One-liners for the command-line tools the tests drive against a TestBus.
// Each has a variadic form for the common case and an array form that also
// takes stdin / timeout. None of them throws: a missing tool or binary comes
// back as status 127 with the reason in `stderr`.

/// `busctl --address=ADDR args…` (add `--json=short` etc. yourself).
@discardableResult
func busctl(_ bus: any BusEndpoint, _ args: String...) -> CommandResult {
    busctl(bus, args)
}

@discardableResult
func busctl(_ bus: any BusEndpoint, _ args: [String], stdin: String? = nil, timeout: Double = 30) -> CommandResult {
    Command.run(["busctl", "--address=\(bus.address)"] + args, stdin: stdin, timeout: timeout)
}

/// `gdbus SUBCOMMAND --address ADDR args…`: gdbus wants the address after the
/// subcommand, e.g. `gdbus(bus, "call", "--dest", name, "--object-path", path,
/// "--method", "iface.Method", "arg")`.
@discardableResult
func gdbus(_ bus: any BusEndpoint, _ subcommand: String, _ args: String...) -> CommandResult {
    gdbus(bus, subcommand, args)
}

@discardableResult
func gdbus(
    _ bus: any BusEndpoint, _ subcommand: String, _ args: [String],
    stdin: String? = nil, timeout: Double = 30
) -> CommandResult {
    Command.run(["gdbus", subcommand, "--address", bus.address] + args, stdin: stdin, timeout: timeout)
}

/// The built `restctl` with `DBUS_SESSION_BUS_ADDRESS` set to the test bus.
@discardableResult
func restctl(_ bus: any BusEndpoint, _ args: String...) -> CommandResult {
    restctl(bus, args)
}

@discardableResult
func restctl(
    _ bus: any BusEndpoint, _ args: [String], environment: [String: String] = [:],
    stdin: String? = nil, timeout: Double = 30
) -> CommandResult {
    let executable: String
    do {
        executable = try BuildProducts.executable("restctl")
    } catch {
        return CommandResult(
            argv: ["restctl"] + args, status: 127, stdout: "",
            stderr: "\(error)\n", timedOut: false, elapsed: 0)
    }
    var env = environment
    env["DBUS_SESSION_BUS_ADDRESS"] = bus.address
    return Command.run([executable] + args, environment: env, stdin: stdin, timeout: timeout)
}

/// `playerctl --player=restd args…` (the MPRIS client of Debian's `playerctl` package) on the
/// test bus: it reads `DBUS_SESSION_BUS_ADDRESS`, and as a GLib client needs the test bus's
/// eavesdrop-permitting policy (ENGINEERING-NOTES).
@discardableResult
func playerctl(_ bus: any BusEndpoint, _ args: String...) -> CommandResult {
    Command.run(["playerctl", "--player=restd"] + args, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
}
