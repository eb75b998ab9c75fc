import Foundation
import RestProtocol
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// dbus/io.restd.Rest1.xml is the contract: the running daemon must declare exactly the same
/// interfaces, members, argument names and types, and annotations.
@Suite("Interface contract", .serialized, .tags(.everyBus))
struct ContractTests {
    /// The parts of an interface that the contract fixes, as comparable lines.
    static func shape(of interface: XMLElement) -> [String] {
        var lines: [String] = []
        func annotations(_ element: XMLElement, _ prefix: String) {
            for annotation in element.elements(forName: "annotation") {
                lines.append("\(prefix) @\(attr(annotation, "name"))=\(attr(annotation, "value"))")
            }
        }
        for method in interface.elements(forName: "method") {
            let name = "method \(attr(method, "name"))"
            lines.append(name)
            for arg in method.elements(forName: "arg") {
                let direction = arg.attribute(forName: "direction")?.stringValue ?? "in"
                lines.append("\(name) \(direction) \(attr(arg, "name")):\(attr(arg, "type"))")
            }
            annotations(method, name)
        }
        for signal in interface.elements(forName: "signal") {
            let name = "signal \(attr(signal, "name"))"
            lines.append(name)
            for arg in signal.elements(forName: "arg") {
                lines.append("\(name) \(attr(arg, "name")):\(attr(arg, "type"))")
            }
            annotations(signal, name)
        }
        for property in interface.elements(forName: "property") {
            let name = "property \(attr(property, "name"))"
            lines.append("\(name) \(attr(property, "type")) \(attr(property, "access"))")
            annotations(property, name)
        }
        annotations(interface, "interface")
        return lines.sorted()
    }

    static func attr(_ element: XMLElement, _ name: String) -> String {
        element.attribute(forName: name)?.stringValue ?? "<none>"
    }

    static func interfaces(inXML xml: String) throws -> [String: [String]] {
        let document = try XMLDocument(xmlString: xml, options: [])
        var result: [String: [String]] = [:]
        for interface in document.rootElement()?.elements(forName: "interface") ?? [] {
            result[attr(interface, "name")] = shape(of: interface)
        }
        return result
    }

    static func contractFile() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("dbus/io.restd.Rest1.xml"), encoding: .utf8)
    }

    @Test("Introspect of the running daemon matches dbus/io.restd.Rest1.xml exactly")
    func introspectionMatchesContract() throws {
        let contract = try Self.interfaces(inXML: try Self.contractFile())
        #expect(
            Set(contract.keys) == [
                RestBus.managerInterface, RestBus.timerInterface, RestBus.liveInterface,
                RestBus.historyInterface, RestBus.workoutInterface,
            ])

        let daemon = try RunningDaemon()
        try daemon.client.start(id: "probe", durationUSec: 60_000_000)
        var served: [String: [String]] = [:]
        for path in [
            RestBus.managerPath, RestBus.timerPath(id: "probe"), RestBus.livePath, RestBus.historyPath,
            RestBus.workoutPath,
        ] {
            let result = gdbus(daemon.bus, "introspect", "--dest", RestBus.name, "--object-path", path, "--xml")
            #expect(result.succeeded, "\(result)")
            for (name, shape) in try Self.interfaces(inXML: result.stdout) where name.hasPrefix("io.restd.") {
                served[name] = shape
            }
        }
        for name in contract.keys.sorted() {
            #expect(served[name] == contract[name], "interface \(name) differs from the contract")
        }
        #expect(Set(served.keys) == Set(contract.keys))
    }

    /// A member of an interface, declared as io.restd.Rest1(5) declares it, in the notation of
    /// systemd's D-Bus pages: `Start(in s id, in t duration_usec, in a{sv} options, out o timer)`,
    /// `Expired(s id, o timer, t deadline_usec, t fired_usec)`,
    /// `@org.freedesktop.DBus.Property.EmitsChangedSignal("const") readonly s Version`.
    struct Member: Hashable {
        let name: String
        let isProperty: Bool
        let declaration: String
    }

    static func members(of interface: XMLElement) -> [Member] {
        func annotated(_ element: XMLElement, _ text: String) -> String {
            let annotations = element.elements(forName: "annotation").map {
                "@\(attr($0, "name"))(\"\(attr($0, "value"))\") "
            }
            return annotations.joined() + text
        }
        func arguments(_ element: XMLElement, directions: Bool) -> String {
            element.elements(forName: "arg").map { arg in
                let direction = directions ? (arg.attribute(forName: "direction")?.stringValue ?? "in") + " " : ""
                return "\(direction)\(attr(arg, "type")) \(attr(arg, "name"))"
            }.joined(separator: ", ")
        }
        var members: [Member] = []
        for method in interface.elements(forName: "method") {
            let name = attr(method, "name")
            let text = "\(name)(\(arguments(method, directions: true)))"
            members.append(Member(name: name, isProperty: false, declaration: annotated(method, text)))
        }
        for signal in interface.elements(forName: "signal") {
            let name = attr(signal, "name")
            let text = "\(name)(\(arguments(signal, directions: false)))"
            members.append(Member(name: name, isProperty: false, declaration: annotated(signal, text)))
        }
        for property in interface.elements(forName: "property") {
            let name = attr(property, "name")
            let access = attr(property, "access") == "read" ? "readonly" : attr(property, "access")
            let text = "\(access) \(attr(property, "type")) \(name)"
            members.append(Member(name: name, isProperty: true, declaration: annotated(property, text)))
        }
        return members
    }

    /// io.restd.Rest1(5) is the reference a user reads: one section per object, whose literal
    /// block declares exactly the interface's members (no more, no fewer, with the XML's argument
    /// names and types), and whose lists describe each of them; every error the XML names is an
    /// item of its ERRORS.
    @Test("io.restd.Rest1(5) declares and describes every member and error of the XML")
    func manPageCoversContract() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("man/man5/io.restd.Rest1.5"), encoding: .utf8)
        let sections = page.components(separatedBy: "\n.Sh ").dropFirst()
        let xml = try Self.contractFile()
        let document = try XMLDocument(xmlString: xml, options: [])
        let interfaces = document.rootElement()?.elements(forName: "interface") ?? []
        #expect(interfaces.count == 5)
        for interface in interfaces {
            let name = Self.attr(interface, "name")
            let opening = "interface \(name) {"
            let owners = sections.filter { $0.contains(opening) }
            #expect(owners.count == 1, "io.restd.Rest1.5 should declare \(name) in one section, not \(owners.count)")
            guard let section = owners.first else { continue }
            // The block from the interface's opening brace to its "};", whitespace made single.
            let block = section.components(separatedBy: opening)[1].components(separatedBy: "\n  };")[0]
            let words = block.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                .replacing("( ", with: "(")
            let declared = Set(
                words.split(separator: ";").map { item in
                    item.split(separator: " ").filter { !["methods:", "signals:", "properties:"].contains($0) }
                        .joined(separator: " ")
                }.filter { !$0.isEmpty })
            let members = Self.members(of: interface)
            #expect(declared == Set(members.map(\.declaration)), "\(name): the page declares \(declared)")
            let items = Set(
                section.split(separator: "\n").filter { $0.hasPrefix(".It ") }.map { line in
                    line.split(separator: " ").prefix(3).joined(separator: " ")
                })
            for member in members {
                let item = member.isProperty ? ".It Va \(member.name)" : ".It Fn \(member.name)"
                #expect(items.contains(item), "\(name): io.restd.Rest1.5 does not describe \(member.name)")
            }
        }
        let errors = try #require(sections.first { $0.hasPrefix("ERRORS\n") })
        let named = Set(
            xml.matches(of: /(?:io\.restd\.Rest1|org\.freedesktop\.DBus)\.Error\.[A-Za-z]+/).map {
                String($0.output)
            })
        #expect(named.count >= 5, "\(named)")
        for error in named.sorted() {
            #expect(errors.contains("\n.It Er \(error)\n"), "io.restd.Rest1.5 does not describe \(error)")
        }
    }

    @Test("the manager carries ObjectManager and the tree lists timers as children")
    func treeAndStandardInterfaces() throws {
        let daemon = try RunningDaemon()
        try daemon.client.start(id: "one", durationUSec: 60_000_000)
        let manager = gdbus(
            daemon.bus, "introspect", "--dest", RestBus.name, "--object-path", RestBus.managerPath, "--xml")
        for name in [
            "org.freedesktop.DBus.ObjectManager", "org.freedesktop.DBus.Properties",
            "org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Peer",
        ] {
            #expect(manager.stdout.contains("<interface name=\"\(name)\">"), "\(name)")
        }
        #expect(manager.stdout.contains("<node name=\"timer\"/>"))
        #expect(manager.stdout.contains("<node name=\"history\"/>"))
        let timers = gdbus(
            daemon.bus, "introspect", "--dest", RestBus.name, "--object-path", RestBus.timersPath, "--xml")
        #expect(timers.stdout.contains("<node name=\"one\"/>"), "\(timers)")
        let root = gdbus(daemon.bus, "introspect", "--dest", RestBus.name, "--object-path", "/", "--xml")
        #expect(root.stdout.contains("<node name=\"io\"/>"), "\(root)")
        let ping = busctl(daemon.bus, "call", RestBus.name, RestBus.managerPath, "org.freedesktop.DBus.Peer", "Ping")
        #expect(ping.succeeded, "\(ping)")
    }
}
