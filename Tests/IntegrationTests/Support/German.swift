import Foundation
import ProcessHarness

/// What a test in German needs beside the programs: their German catalog, compiled where they
/// look (`make build-tests`: share/locale beside the build's folder), and the German locale,
/// without which glibc's gettext speaks English (`make test-deps` generates it).
enum German {
    /// The locale the tests give restd and restctl to speak German.
    static let locale = "de_DE.UTF-8"

    /// Throws a sentence that says what to run when either is missing.
    static func requireCatalogAndLocale() throws {
        let program = try BuildProducts.executable("restctl")
        let real = (try? FileManager.default.destinationOfSymbolicLink(atPath: program)) ?? program
        let folder = ((real as NSString).resolvingSymlinksInPath as NSString).deletingLastPathComponent
        let catalog = "\(folder)/../share/locale/de/LC_MESSAGES/restd.mo"
        guard FileManager.default.fileExists(atPath: catalog) else {
            throw HarnessError.notFound(
                "no German catalog at \(catalog): run make build-tests (it compiles po/*.po there)")
        }
        let locales = Command.run(["locale", "-a"]).stdout
        guard locales.split(separator: "\n").contains(where: { $0.lowercased() == "de_de.utf8" }) else {
            throw HarnessError.notFound("no German locale (locale -a): run make test-deps (it generates de_DE.UTF-8)")
        }
    }
}
