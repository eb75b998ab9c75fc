import Foundation
import RestProtocol
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// dbus/io.restd.Rest1.xml is the contract: the running daemon must declare exactly the same
/// interfaces, members, argument names and types, and annotations.
@Suite("Interface contract", .serialized)
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
