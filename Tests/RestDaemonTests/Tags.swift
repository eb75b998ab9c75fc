import Testing

extension Tag {
    /// It waits for real time on purpose (real sound playing, on real sound servers): `make check`
    /// leaves it to `make test`. The integration tests' tag of the same name says more
    /// (Tests/IntegrationTests/Support/Tags.swift); runs select by the name, in either module.
    @Tag static var realTime: Self
}
