import Foundation
import Localization
import RestNotify

/// The German texts of po/de.po, read here so that the tests see restd's own catalog without a
/// German locale in the test process (glibc's gettext is one per process).
extension Messages {
    static let german = Messages(catalog: .poFile("de.po"))
}

extension Catalog {
    /// The translations of po/NAME, with a plural form for counts other than 1 (German's, English's).
    static func poFile(_ name: String) -> Catalog {
        let path = #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
        let entries = POFile.entries(text: (try? String(contentsOfFile: "/\(path)/po/\(name)", encoding: .utf8)) ?? "")
        return Catalog { context, text, plural, count in
            let key = context.map { $0 + "\u{4}" + text } ?? text
            guard let forms = entries[key], forms.allSatisfy({ !$0.isEmpty }) else {
                return plural.map { count == 1 ? text : $0 } ?? text
            }
            return forms[plural != nil && count != 1 && forms.count > 1 ? 1 : 0]
        }
    }
}

/// A PO file's translations: "context\u{4}text" or "text" to msgstr (or msgstr[0], msgstr[1]…).
enum POFile {
    static func entries(text: String) -> [String: [String]] {
        var entries: [String: [String]] = [:]
        var context: String?
        var id = ""
        var forms: [String] = []
        var field = ""
        func finish() {
            if !id.isEmpty { entries[context.map { $0 + "\u{4}" + id } ?? id] = forms }
            context = nil
            id = ""
            forms = []
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            // A comment may quote a text too ("#. TRANSLATORS: … \"Rest over\" …").
            if line.hasPrefix("#") { continue }
            guard let quote = line.firstIndex(of: "\"") else {
                if line.isEmpty { finish() }
                continue
            }
            let keyword = line[..<quote].trimmingCharacters(in: .whitespaces)
            let value = unescape(line[line.index(after: quote)..<line.index(before: line.endIndex)])
            if !keyword.isEmpty { field = keyword }
            switch field {
            case "msgctxt": context = (context ?? "") + value
            case "msgid": id += value
            case "msgid_plural": break
            default:
                if !keyword.isEmpty { forms.append("") }
                if !forms.isEmpty { forms[forms.count - 1] += value }
            }
        }
        finish()
        return entries
    }

    private static func unescape(_ quoted: Substring) -> String {
        var result = ""
        var escaped = false
        for character in quoted {
            if escaped {
                result.append(character == "n" ? "\n" : character == "t" ? "\t" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
