import Testing

@testable import DBusKit

/// A property table is what Get, GetAll, GetManagedObjects and PropertiesChanged read: each
/// must see the rows in order, with their getters, and PropertiesChanged only what it may carry.
@Suite struct PropertyTableTests {
    struct Lamp {
        var on: Bool
        var label: String
        var watts: UInt32
    }

    static let properties: PropertyTable<Lamp> = [
        BusProperty("Serial", .string, annotations: [.emitsChangedSignal("const")]) { _ in .string("L-1") },
        BusProperty("On", .boolean) { .boolean($0.on) },
        BusProperty("Label", .string) { .string($0.label) },
        // Computed when read, like MPRIS's Position: never announced.
        BusProperty("Watts", .uint32, annotations: [.emitsChangedSignal("false")]) { .uint32($0.watts) },
    ]

    static let interface = InterfaceDescription(
        name: "org.example.Lamp", methods: [], properties: properties.descriptions)

    @Test("the description lists the rows in order, with their types and annotations")
    func descriptions() {
        #expect(Self.interface.properties.map(\.name) == ["Serial", "On", "Label", "Watts"])
        #expect(Self.interface.properties[1].type == .boolean)
        #expect(Self.interface.properties[0].annotations == [.emitsChangedSignal("const")])
    }

    @Test("one value by name; nil for a name the table does not have")
    func value() {
        let lamp = Lamp(on: true, label: "desk", watts: 40)
        #expect(Self.properties.value("Label", of: lamp) == .string("desk"))
        #expect(Self.properties.value("Watts", of: lamp) == .uint32(40))
        #expect(Self.properties.value("Colour", of: lamp) == nil)
    }

    @Test("PropertiesChanged carries the names asked for, or every announced one, never one computed when read")
    func announced() {
        let lamp = Lamp(on: false, label: "desk", watts: 0)
        #expect(
            Self.properties.announced(of: lamp)
                == ["Serial": .string("L-1"), "On": .boolean(false), "Label": .string("desk")])
        #expect(Self.properties.announced(["Label", "Watts"], of: lamp) == ["Label": .string("desk")])
    }

    @Test("only the values that differ, and nothing when none does")
    func changed() {
        let old = Lamp(on: false, label: "desk", watts: 0)
        var new = old
        new.on = true
        new.watts = 60
        #expect(Self.properties.changed(from: old, to: new) == ["On": .boolean(true)])
        #expect(Self.properties.changed(from: old, to: old).isEmpty)
    }

    @Test("an interface made from the table reads its state once for all properties, and has none without a state")
    func exported() {
        var lamp: Lamp? = Lamp(on: true, label: "desk", watts: 40)
        var reads = 0
        let exported = ExportedInterface(
            Self.interface, methods: [BusMethod<Void>](), context: (), properties: Self.properties
        ) {
            reads += 1
            return lamp
        }
        #expect(exported.property("On") == .boolean(true))
        reads = 0
        #expect(exported.allProperties().count == 4)
        #expect(reads == 1)
        lamp = nil
        #expect(exported.property("On") == nil)
        #expect(exported.allProperties().isEmpty)
    }
}
