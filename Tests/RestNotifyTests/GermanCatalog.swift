import Foundation
import Localization
import RestNotify

/// The German texts of po/de.po, compiled by msgfmt as `make` compiles them and read by restd's
/// own reader, so that the tests see restd's catalog whatever the test process's language.
extension Messages {
    static let german = Messages(catalog: .compiled("de"))
}

extension Catalog {
    /// The catalog po/LANGUAGE.po, compiled; the source texts if msgfmt (gettext, in the build's
    /// packages) cannot compile it, which the German expectations then report.
    static func compiled(_ language: String) -> Catalog {
        (try? MessageCatalog.compiled(language)).map(Catalog.init) ?? .source
    }
}

extension MessageCatalog {
    /// po/LANGUAGE.po compiled by msgfmt, and read back; nil when msgfmt refuses it.
    static func compiled(_ language: String) throws -> MessageCatalog? {
        let root = #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
        return try compiledBytes(poFile: "/\(root)/po/\(language).po").map { try MessageCatalog(bytes: $0) }
    }

    /// `po`, a catalog's source, compiled by msgfmt in the byte order `endianness`, and read back.
    static func compiled(po: String, endianness: String) throws -> MessageCatalog? {
        try compiledBytes(po: po, endianness: endianness).map { try MessageCatalog(bytes: $0) }
    }

    /// The .mo file msgfmt makes of `po`.
    static func compiledBytes(po: String, endianness: String) throws -> [UInt8]? {
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("restd-\(UUID()).po")
        defer { try? FileManager.default.removeItem(at: source) }
        try Data(po.utf8).write(to: source)
        return try compiledBytes(poFile: source.path, arguments: ["--endianness=\(endianness)"])
    }

    private static func compiledBytes(poFile: String, arguments: [String] = []) throws -> [UInt8]? {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("restd-\(UUID()).mo")
        defer { try? FileManager.default.removeItem(at: output) }
        let msgfmt = Process()
        msgfmt.executableURL = URL(fileURLWithPath: "/usr/bin/msgfmt")
        msgfmt.arguments = ["--check", "--output-file=\(output.path)"] + arguments + [poFile]
        try msgfmt.run()
        msgfmt.waitUntilExit()
        guard msgfmt.terminationStatus == 0 else { return nil }
        return Array(try Data(contentsOf: output))
    }
}
