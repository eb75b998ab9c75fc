import Foundation
import TOML

// toml-conformance: the TOML reader against the TOML project's compliance suite (toml-test).
//
//   toml-conformance [--verbose] SUITE_DIR
//
// Reads SUITE_DIR/files-toml-1.0.0; every listed `valid/**/X.toml` must be accepted and equal, as
// toml-test's tagged JSON, to `X.json`; every `invalid/**/X.toml` must be refused. Prints each
// failure and the counts; exits 0 only when everything passes (1 on a failure, 2 on misuse or an
// unreadable suite). --verbose names each file on stderr before reading it.

var arguments = Array(CommandLine.arguments.dropFirst())
let verbose = arguments.first == "--verbose"
if verbose { arguments.removeFirst() }
guard arguments.count == 1, !arguments[0].hasPrefix("-") else {
    FileHandle.standardError.write(Data("usage: toml-conformance [--verbose] SUITE_DIR\n".utf8))
    exit(2)
}
let suite = URL(fileURLWithPath: arguments[0])
let listName = "files-toml-1.0.0"

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("toml-conformance: \(message)\n".utf8))
    exit(2)
}

guard let list = try? String(contentsOf: suite.appendingPathComponent(listName), encoding: .utf8) else {
    fail("cannot read \(suite.path)/\(listName) (is the suite there?)")
}
let tomlFiles = list.split(whereSeparator: \.isNewline).map(String.init).filter { $0.hasSuffix(".toml") }
let validFiles = tomlFiles.filter { $0.hasPrefix("valid/") }
let invalidFiles = tomlFiles.filter { $0.hasPrefix("invalid/") }
// A list that names nothing, or files of neither kind, would make "everything passes" meaningless.
guard !validFiles.isEmpty, !invalidFiles.isEmpty, validFiles.count + invalidFiles.count == tomlFiles.count else {
    fail("\(listName) lists no valid or no invalid .toml file, or files outside valid/ and invalid/")
}

func read(_ file: String) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: suite.appendingPathComponent(file).path) else {
        fail("cannot read \(file)")
    }
    return [UInt8](data)
}

func parse(_ file: String) -> Result<TOMLTable, TOMLSyntaxError> {
    // On stderr, unbuffered: if the reader crashes, the last name printed is the file it crashed on.
    if verbose { FileHandle.standardError.write(Data("\(file)\n".utf8)) }
    return Result { () throws(TOMLSyntaxError) in try TOMLParser.parse(utf8: read(file)) }
}

var failures: [String] = []
var validPassed = 0
for file in validFiles {
    let expectedFile = String(file.dropLast(".toml".count)) + ".json"
    let expected: Tagged
    do {
        let json = try JSONSerialization.jsonObject(with: Data(read(expectedFile)))
        expected = try Tagged(json: json)
    } catch {
        fail("\(expectedFile): not toml-test's tagged JSON: \(error)")
    }
    switch parse(file) {
    case .failure(let error):
        failures.append("\(file): refused a valid document: line \(error.line): \(error.reason)")
    case .success(let table):
        let actual = Tagged(table)
        if let difference = actual.difference(from: expected) {
            failures.append("\(file): \(difference)")
        } else {
            validPassed += 1
        }
    }
}

var invalidPassed = 0
for file in invalidFiles {
    switch parse(file) {
    case .failure: invalidPassed += 1
    case .success(let table): failures.append("\(file): accepted an invalid document as \(Tagged(table).json)")
    }
}

for failure in failures { print(failure) }
print("toml-test 1.0.0: valid \(validPassed)/\(validFiles.count), invalid \(invalidPassed)/\(invalidFiles.count)")
exit(failures.isEmpty ? 0 : 1)
