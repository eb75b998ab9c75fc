import Foundation
import Localization
import Testing

/// restd's own reader of gettext's compiled catalogs, and how it chooses one: German with no
/// German locale generated on the machine.
@Suite struct MessageCatalogTests {
    static let german = """
        msgid ""
        msgstr ""
        "Project-Id-Version: restd\\n"
        "PO-Revision-Date: 2026-01-01 00:00+0000\\n"
        "Last-Translator: restd <restd@localhost>\\n"
        "Language-Team: German\\n"
        "MIME-Version: 1.0\\n"
        "Content-Type: text/plain; charset=UTF-8\\n"
        "Content-Transfer-Encoding: 8bit\\n"
        "Language: de\\n"
        "Plural-Forms: nplurals=2; plural=(n != 1);\\n"

        msgctxt "decimal separator"
        msgid "."
        msgstr ","

        msgid "%1$d set"
        msgid_plural "%1$d sets"
        msgstr[0] "%1$d Satz"
        msgstr[1] "%1$d Sätze"

        msgid "Rest over"
        msgstr "Pause beendet"
        """

    @Test("a catalog msgfmt wrote, in either byte order: texts, plurals, contexts, the header's language")
    func readsWhatMsgfmtWrites() throws {
        for endianness in ["little", "big"] {
            let catalog = try #require(try MessageCatalog.compiled(po: Self.german, endianness: endianness))
            #expect(catalog.language == "de")
            #expect(catalog.translation(context: nil, text: "Rest over", plural: nil, count: 1) == "Pause beendet")
            #expect(catalog.translation(context: "decimal separator", text: ".", plural: nil, count: 1) == ",")
            #expect(catalog.translation(context: nil, text: ".", plural: nil, count: 1) == nil)
            #expect(catalog.translation(context: nil, text: "%1$d set", plural: "%1$d sets", count: 1) == "%1$d Satz")
            #expect(catalog.translation(context: nil, text: "%1$d set", plural: "%1$d sets", count: 0) == "%1$d Sätze")
            #expect(catalog.translation(context: nil, text: "Rest started", plural: nil, count: 1) == nil)
        }
    }

    @Test("what is not a catalog is refused with a reason, never read past its end")
    func refusesWhatIsNotACatalog() throws {
        #expect(throws: MessageCatalog.Unreadable(description: "too short for a catalog")) {
            try MessageCatalog(bytes: [0xde, 0x12, 0x04, 0x95])
        }
        #expect(throws: MessageCatalog.Unreadable(description: "not a gettext catalog (no .mo magic number)")) {
            try MessageCatalog(bytes: Array("msgid \"\"\nmsgstr \"\"\n\nmsgid \"Rest over\"\n".utf8))
        }
        let whole = try #require(try MessageCatalog.compiledBytes(po: Self.german, endianness: "little"))
        // (msgfmt ends each text with a NUL its length does not count: the last byte is not needed.)
        for cut in [24, whole.count / 2, whole.count - 2] {
            #expect(throws: MessageCatalog.Unreadable.self) { try MessageCatalog(bytes: Array(whole[..<cut])) }
        }
        #expect(try MessageCatalog(path: "/nonexistent/restd.mo") == nil)
    }

    @Test("plural forms of languages with one, two, three and six forms, as their catalogs write them")
    func pluralForms() throws {
        func forms(_ header: String, _ counts: [UInt]) throws -> [Int] {
            let rule = try #require(PluralRule(header: header))
            return counts.map(rule.form(for:))
        }
        #expect(try forms("nplurals=2; plural=(n != 1);", [0, 1, 2, 101]) == [1, 0, 1, 1])
        #expect(try forms("nplurals=2; plural=(n > 1);", [0, 1, 2]) == [0, 0, 1])
        #expect(try forms("nplurals=1; plural=0;", [0, 1, 7]) == [0, 0, 0])
        let russian =
            "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"
        #expect(try forms(russian, [1, 2, 5, 11, 12, 21, 22, 25, 111, 112]) == [0, 1, 2, 2, 2, 0, 1, 2, 2, 2])
        let arabic =
            "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);"
        #expect(try forms(arabic, [0, 1, 2, 3, 10, 11, 99, 100, 102]) == [0, 1, 2, 3, 3, 4, 4, 5, 5])
        #expect(try forms("nplurals=2; plural=!(n == 1);", [1, 3]) == [0, 1])
        // A form past the last, or a division by zero, is the first form, as gettext has it.
        #expect(try forms("nplurals=2; plural=n;", [0, 1, 2]) == [0, 1, 0])
        #expect(try forms("nplurals=2; plural=n/(n-n);", [1]) == [0])
        for broken in [
            "nplurals=2; plural=(n !=", "nplurals=2;", "plural=n;", "nplurals=0; plural=0;", "nplurals=2; plural=n=1;",
        ] {
            #expect(PluralRule(header: broken) == nil, "\(broken)")
        }
    }

    @Test("the language from LC_ALL, LC_MESSAGES, LANG and LANGUAGE, as gettext programs choose it")
    func languageChoice() {
        #expect(LanguageChoice.languages(environment: ["LANG": "de_DE.UTF-8"]) == ["de_DE.UTF-8"])
        #expect(
            LanguageChoice.languages(environment: ["LANG": "de_DE.UTF-8", "LC_ALL": "fr_FR.UTF-8"]) == ["fr_FR.UTF-8"])
        #expect(LanguageChoice.languages(environment: ["LANG": "de_DE.UTF-8", "LC_ALL": ""]) == ["de_DE.UTF-8"])
        #expect(LanguageChoice.languages(environment: ["LANG": "en_US.UTF-8", "LC_MESSAGES": "de_AT"]) == ["de_AT"])
        #expect(LanguageChoice.languages(environment: ["LANG": "de_DE.UTF-8", "LANGUAGE": "fr:de"]) == ["fr", "de"])
        #expect(LanguageChoice.languages(environment: ["LANG": "C.UTF-8", "LANGUAGE": "de"]) == ["de"])
        #expect(LanguageChoice.languages(environment: ["LANG": "de_DE.UTF-8", "LC_ALL": "C", "LANGUAGE": "de"]) == [])
        #expect(LanguageChoice.languages(environment: ["LC_ALL": "POSIX"]) == [])
        #expect(LanguageChoice.languages(environment: ["LANG": "C.UTF-8"]) == [])
        #expect(LanguageChoice.languages(environment: ["LANGUAGE": "de"]) == [])
        #expect(
            LanguageChoice.catalogNames("de_DE.UTF-8@euro") == [
                "de_DE.UTF-8@euro", "de_DE@euro", "de.UTF-8@euro", "de@euro", "de_DE.UTF-8", "de_DE", "de.UTF-8", "de",
            ])
        #expect(LanguageChoice.catalogNames("de") == ["de"])
    }

    @Test(
        "the catalog found in a folder: by the locale's name without a generated locale, LANGUAGE's list, English ending it"
    )
    func catalogInAFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("restd-locale-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let messages = folder.appendingPathComponent("de/LC_MESSAGES")
        try FileManager.default.createDirectory(at: messages, withIntermediateDirectories: true)
        let bytes = try #require(try MessageCatalog.compiledBytes(po: Self.german, endianness: "little"))
        try Data(bytes).write(to: messages.appendingPathComponent("restd.mo"))
        try Data("not a catalog".utf8).write(
            to: try folder.appendingPathComponent("fr/LC_MESSAGES/restd.mo").creatingParent())

        func language(_ environment: [String: String]) -> String? {
            Localization.find(in: folder.path, environment: environment)?.language
        }
        #expect(language(["LANG": "de_AT.UTF-8"]) == "de")
        #expect(language(["LANG": "C.UTF-8", "LANGUAGE": "pt_BR:de"]) == "de")
        #expect(language(["LANG": "de_DE.UTF-8", "LANGUAGE": "fr:de"]) == "de")
        #expect(language(["LANG": "de_DE.UTF-8", "LANGUAGE": "en_GB:de"]) == nil)
        #expect(language(["LANG": "de_DE.UTF-8", "LC_ALL": "C"]) == nil)
        #expect(language(["LANG": "pt_BR.UTF-8"]) == nil)
    }
}

extension URL {
    /// The URL, after creating its parent folder.
    fileprivate func creatingParent() throws -> URL {
        try FileManager.default.createDirectory(at: deletingLastPathComponent(), withIntermediateDirectories: true)
        return self
    }
}
