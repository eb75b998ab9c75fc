import Foundation
import ProcessHarness

/// Debian's Chromium, headless: a page opened as a reader's browser opens it, with what its
/// console said (a script error, a blocked load) and the document as it then stands.
enum Chromium {
    struct Page {
        /// The document after loading (`--dump-dom`), as Chromium serialises it.
        let dom: String
        /// The console's messages (Chromium's log lines of its console), none for a clean page.
        let console: [String]
    }

    /// Opens the file at `path` and returns its document and console.
    static func open(_ path: String) throws -> Page {
        let result = try run(["--dump-dom", fileURL(path)])
        return Page(
            dom: result.stdout,
            console: result.stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init))
    }

    /// A PNG of the page at `path`, `width` CSS pixels wide and `height` tall.
    static func screenshot(_ path: String, to png: String, width: Int = 1100, height: Int = 1500) throws {
        _ = try run(["--screenshot=\(png)", "--window-size=\(width),\(height)", "--hide-scrollbars", fileURL(path)])
    }

    /// One headless run on a profile of its own, with the network and every background service
    /// off: nothing but the page is loaded. `--no-sandbox`: the tests may run as root, for which
    /// Chromium's sandbox refuses to start.
    private static func run(_ arguments: [String]) throws -> CommandResult {
        let profile = try TempDirectory(prefix: "chromium-profile")
        let result = Command.run(
            [
                "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--user-data-dir=\(profile.path)", "--disable-background-networking", "--disable-component-update",
                "--disable-extensions", "--disable-sync", "--enable-logging=stderr", "--v=0",
            ] + arguments, environment: ["HOME": profile.path], timeout: 120)
        guard result.succeeded else { throw HarnessError.failed("chromium failed: \(result)") }
        return result
    }

    private static func fileURL(_ path: String) -> String { URL(fileURLWithPath: path).absoluteString }
}

/// The charts of a page as Chromium's document has them: each `<svg class="chart">` by its
/// `data-chart`, with its markup, for counting what it draws.
struct ChartsInDocument {
    struct Chart {
        let kind: String
        let markup: String

        /// How many elements have `name` among their classes.
        func count(class name: String) -> Int {
            markup.matches(of: #/class="([^"]*)"/#).filter { $0.output.1.split(separator: " ").contains { $0 == name } }
                .count
        }
    }

    let charts: [Chart]

    init(_ dom: String) {
        charts = dom.matches(of: #/<svg class="chart" data-chart="([^"]*)"[\s\S]*?</svg>/#).map {
            Chart(kind: String($0.output.1), markup: String($0.output.0))
        }
    }

    func of(kind: String) -> [Chart] { charts.filter { $0.kind == kind } }
}
