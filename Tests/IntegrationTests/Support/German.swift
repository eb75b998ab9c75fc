import Foundation
import ProcessHarness

/// What a test in German needs beside the programs: their German catalog, compiled where they
/// look (`make build-tests`: share/locale beside the build's folder). No German locale: restd
/// and restctl read their catalogs themselves, and the tests give them none (`environment`).
enum German {
    /// The locale the tests give restd and restctl to speak German.
    static let locale = "de_DE.UTF-8"

    /// The variables that choose German, with LOCPATH naming no locales, as on a machine that
    /// never generated one.
    static let environment = ["LC_ALL": "", "LANG": locale, "LOCPATH": "/nonexistent"]

    /// Throws a sentence that says what to run when the catalog is missing.
    static func requireCatalog() throws {
        let program = try BuildProducts.executable("restctl")
        let real = (try? FileManager.default.destinationOfSymbolicLink(atPath: program)) ?? program
        let folder = ((real as NSString).resolvingSymlinksInPath as NSString).deletingLastPathComponent
        let catalog = "\(folder)/../share/locale/de/LC_MESSAGES/restd.mo"
        guard FileManager.default.fileExists(atPath: catalog) else {
            throw HarnessError.notFound(
                "no German catalog at \(catalog): run make build-tests (it compiles po/*.po there)")
        }
    }
}
