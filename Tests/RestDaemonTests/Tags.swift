import Testing

// The integration tests' tags (Tests/IntegrationTests/Support/Tags.swift says what each means),
// for the few unit suites that carry one; the runs select by name, whatever the module.
extension Tag {
    /// It waits for real time to pass on purpose (real sound played and recorded).
    @Tag static var realTime: Self
}
