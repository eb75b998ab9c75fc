import Foundation
import ProcessHarness
import Testing

/// The man pages as man shows them: headed and footed with restd's manual and version, not with
/// groff's "BSD General Commands Manual".
@Suite("man pages")
struct ManPageTests {
    @Test(
        "each page names restd's manual in its header and restd's version in its footer",
        arguments: ["man1/restd.1", "man1/restctl.1", "man5/restd.conf.5", "man5/io.restd.Rest1.5"])
    func headerAndFooter(page: String) throws {
        let path = ExitStatusTests.repository.appending(path: "man/\(page)").path
        let shown = Command.run(["man", "-l", path], environment: ["MANWIDTH": "80"])
        #expect(shown.succeeded, "\(shown)")
        let lines = shown.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let version = Command.run([try BuildProducts.executable("restd"), "--version"]).output
        #expect(lines.first?.contains(" restd Manual ") == true, "\(lines.first ?? "")")
        #expect(lines.last?.hasPrefix("restd \(version) ") == true, "\(lines.last ?? "")")
        #expect(!shown.stdout.contains("BSD"), "\(shown.stdout)")
    }
}
