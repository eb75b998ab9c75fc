import Testing

@testable import DBusKit

@Suite struct IntrospectionTests {
    @Test func documentListsInterfacesMembersAnnotationsAndChildren() {
        let interface = InterfaceDescription(
            name: "org.example.Thing",
            methods: [.init("Do", in: [.init("what", .string)], out: [.init("done", .boolean)]), .init("Nothing")],
            signals: [.init("Happened", [.init("when", .uint64)])],
            properties: [.init("Name", .string, annotations: [.emitsChangedSignal("const")])])
        let xml = IntrospectionXML.document(interfaces: [interface], children: ["a", "b<"])
        #expect(xml.contains("<interface name=\"org.example.Thing\">"))
        #expect(xml.contains("<arg name=\"what\" type=\"s\" direction=\"in\"/>"))
        #expect(xml.contains("<arg name=\"done\" type=\"b\" direction=\"out\"/>"))
        #expect(xml.contains("<method name=\"Nothing\"/>"))
        #expect(xml.contains("<arg name=\"when\" type=\"t\"/>"))
        #expect(xml.contains("<annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" value=\"const\"/>"))
        #expect(xml.contains("<node name=\"a\"/>"))
        #expect(xml.contains("<node name=\"b&lt;\"/>"))
    }
}
