/// The static shape of a D-Bus interface: what Introspect reports.
public struct InterfaceDescription: Sendable, Equatable {
    public var name: String
    public var methods: [Method]
    public var signals: [Signal]
    public var properties: [Property] {
        didSet { propertyNamesByName = Self.sortedNames(properties) }
    }
    public var annotations: [Annotation]
    /// The property names sorted as `DBusValue.vardict` sorts its keys: the order in which
    /// GetAll, GetManagedObjects and InterfacesAdded list them, worked out once, not per object.
    public private(set) var propertyNamesByName: [String]

    public init(
        name: String, methods: [Method] = [], signals: [Signal] = [], properties: [Property] = [],
        annotations: [Annotation] = []
    ) {
        self.name = name
        self.methods = methods
        self.signals = signals
        self.properties = properties
        self.annotations = annotations
        propertyNamesByName = Self.sortedNames(properties)
    }

    private static func sortedNames(_ properties: [Property]) -> [String] { properties.map(\.name).sorted() }

    public struct Argument: Sendable, Equatable {
        public var name: String
        public var type: DBusType
        public init(_ name: String, _ type: DBusType) {
            self.name = name
            self.type = type
        }
    }

    public struct Annotation: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }

        /// How a property announces changes (`true`, `invalidates`, `const`, `false`).
        public static func emitsChangedSignal(_ value: String) -> Annotation {
            Annotation("org.freedesktop.DBus.Property.EmitsChangedSignal", value)
        }
    }

    public struct Method: Sendable, Equatable {
        public var name: String
        public let inputs: [Argument]
        public var outputs: [Argument]
        public var annotations: [Annotation]
        /// What every call is checked against: made once, not per call.
        public let inputSignature: String

        public init(
            _ name: String, in inputs: [Argument] = [], out outputs: [Argument] = [], annotations: [Annotation] = []
        ) {
            self.name = name
            self.inputs = inputs
            self.outputs = outputs
            self.annotations = annotations
            inputSignature = DBusType.signature(of: inputs.map(\.type))
        }
    }

    public struct Signal: Sendable, Equatable {
        public var name: String
        public var arguments: [Argument]
        public var annotations: [Annotation]
        public init(_ name: String, _ arguments: [Argument] = [], annotations: [Annotation] = []) {
            self.name = name
            self.arguments = arguments
            self.annotations = annotations
        }
    }

    public struct Property: Sendable, Equatable {
        public enum Access: String, Sendable { case read, write, readwrite }
        public var name: String
        public var type: DBusType
        public var access: Access
        public var annotations: [Annotation]
        public init(_ name: String, _ type: DBusType, access: Access = .read, annotations: [Annotation] = []) {
            self.name = name
            self.type = type
            self.access = access
            self.annotations = annotations
        }
    }

    public func method(named name: String) -> Method? { methods.first { $0.name == name } }
    public func property(named name: String) -> Property? { properties.first { $0.name == name } }
}

// MARK: - The standard interfaces every object carries

extension InterfaceDescription {
    public static let peer = InterfaceDescription(
        name: "org.freedesktop.DBus.Peer",
        methods: [
            Method("Ping"),
            Method("GetMachineId", out: [Argument("machine_uuid", .string)]),
        ])

    public static let introspectable = InterfaceDescription(
        name: "org.freedesktop.DBus.Introspectable",
        methods: [
            Method("Introspect", out: [Argument("xml_data", .string)])
        ])

    public static let properties = InterfaceDescription(
        name: "org.freedesktop.DBus.Properties",
        methods: [
            Method(
                "Get", in: [Argument("interface_name", .string), Argument("property_name", .string)],
                out: [Argument("value", .variant)]),
            Method(
                "GetAll", in: [Argument("interface_name", .string)],
                out: [Argument("props", .dictionary(key: .string, value: .variant))]),
            Method(
                "Set",
                in: [
                    Argument("interface_name", .string), Argument("property_name", .string),
                    Argument("value", .variant),
                ]),
        ],
        signals: [
            Signal(
                "PropertiesChanged",
                [
                    Argument("interface_name", .string),
                    Argument("changed_properties", .dictionary(key: .string, value: .variant)),
                    Argument("invalidated_properties", .array(.string)),
                ])
        ])

    public static let objectManager = InterfaceDescription(
        name: "org.freedesktop.DBus.ObjectManager",
        methods: [
            Method(
                "GetManagedObjects",
                out: [
                    Argument(
                        "object_paths_interfaces_and_properties",
                        .dictionary(
                            key: .objectPath,
                            value: .dictionary(key: .string, value: .dictionary(key: .string, value: .variant))))
                ])
        ],
        signals: [
            Signal(
                "InterfacesAdded",
                [
                    Argument("object_path", .objectPath),
                    Argument(
                        "interfaces_and_properties",
                        .dictionary(key: .string, value: .dictionary(key: .string, value: .variant))),
                ]),
            Signal(
                "InterfacesRemoved",
                [
                    Argument("object_path", .objectPath),
                    Argument("interfaces", .array(.string)),
                ]),
        ])
}
