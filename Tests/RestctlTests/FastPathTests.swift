import ArgumentParser
import Testing

@testable import restctl

/// `restctl status` read without ArgumentParser must read what ArgumentParser reads, and leave
/// to it everything else.
@Suite struct FastPathTests {
    @Test(
        "a plain status command is read as ArgumentParser reads it",
        arguments: [
            ["status"], ["status", "--json"], ["status", "--id", "squat"], ["status", "--id=bench-press"],
            ["status", "--json", "--id", "a_1"], ["status", "--id", "x", "--json"], ["status", "--id=x", "--json"],
        ])
    func sameAsArgumentParser(_ arguments: [String]) throws {
        let fast = try #require(FastPath.status(arguments))
        let parsed = try Restctl.parseAsRoot(arguments)
        let status = try #require(parsed as? Restctl.Status)
        #expect(fast.id == status.timer.id)
        #expect(fast.json == status.output.json)
    }

    @Test(
        "anything else is left to ArgumentParser",
        arguments: [
            [], ["list"], ["status", "--help"], ["status", "-h"], ["status", "--json", "--json"],
            ["status", "--id", "a", "--id", "b"], ["status", "--id"], ["status", "--id", "--json"],
            ["status", "--id", "-5"], ["status", "--id="], ["status", "--id", ""], ["status", "--id", "no spaces"],
            ["status", "--jsn"], ["status", "extra"], ["status", "--", "--json"], ["status", "--version"],
            ["--version", "status"], ["workout", "status"],
        ])
    func leftToArgumentParser(_ arguments: [String]) {
        #expect(FastPath.status(arguments) == nil)
    }

    @Test("status has the options the fast path reads and no other: a new one has to be read there too")
    func statusOptionsAreTheFastPaths() {
        let status = CommandDescription(of: Restctl.Status.self)
        #expect(Set(status.optionNames) == ["--id", "--json", "-h", "--help"])
        #expect(status.namesTakingValues == ["--id"])
    }
}
