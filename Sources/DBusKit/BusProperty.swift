/// One row of an object's property table: the property as introspection shows it, and how to
/// read it from the state the object serves. An object lists its rows beside its method table,
/// as logind's `sd_bus_vtable`s list `SD_BUS_PROPERTY` beside `SD_BUS_METHOD`, so that a
/// property's name, type and getter are written once, and Get, GetAll, GetManagedObjects and
/// PropertiesChanged all read the same rows:
///
///     static let properties: PropertyTable<RestTimer> = [
///         BusProperty(TimerProperty.label, .string) { .string($0.label) },
///     ]
public struct BusProperty<State>: Sendable {
    public typealias Getter = @Sendable (State) -> DBusValue

    public let description: InterfaceDescription.Property
    @usableFromInline let read: Getter
    /// Whether PropertiesChanged carries it: not when it is computed when read
    /// (EmitsChangedSignal=false, an MPRIS Position say).
    @usableFromInline let isAnnounced: Bool

    public init(
        _ name: String, _ type: DBusType, annotations: [InterfaceDescription.Annotation] = [],
        _ read: @escaping Getter
    ) {
        description = InterfaceDescription.Property(name, type, annotations: annotations)
        self.read = read
        isAnnounced = !annotations.contains(.emitsChangedSignal("false"))
    }

    public var name: String { description.name }
}

/// An interface's properties: its rows in the order introspection lists them.
public struct PropertyTable<State>: Sendable, ExpressibleByArrayLiteral {
    public let rows: [BusProperty<State>]

    public init(_ rows: [BusProperty<State>]) { self.rows = rows }
    public init(arrayLiteral rows: BusProperty<State>...) { self.rows = rows }

    /// What the interface description lists.
    public var descriptions: [InterfaceDescription.Property] { rows.map(\.description) }

    /// One property's value, without reading the others (Get, and GetAll one name at a time).
    @inlinable
    public func value(_ name: String, of state: State) -> DBusValue? {
        rows.first { $0.description.name == name }?.read(state)
    }

    /// The values PropertiesChanged carries: those of `names`, or of every announced property.
    public func announced(_ names: [String]? = nil, of state: State) -> [String: DBusValue] {
        var values: [String: DBusValue] = [:]
        for row in rows where row.isAnnounced && names?.contains(row.name) ?? true {
            values[row.name] = row.read(state)
        }
        return values
    }

    /// Only the announced properties whose values differ between `old` and `new`.
    public func changed(from old: State, to new: State) -> [String: DBusValue] {
        var changed: [String: DBusValue] = [:]
        for row in rows where row.isAnnounced {
            let value = row.read(new)
            if value != row.read(old) { changed[row.name] = value }
        }
        return changed
    }
}

extension ObjectServer {
    /// PropertiesChanged with the values of `names` (every announced property when nil) as
    /// `table` reads them from `state`.
    public func emitPropertiesChanged<State>(
        path: String, interface: String, _ table: PropertyTable<State>, _ names: [String]? = nil, of state: State
    ) {
        emitPropertiesChanged(path: path, interface: interface, changed: table.announced(names, of: state))
    }

    /// PropertiesChanged with the values that differ between `old` and `new`; nothing when none does.
    public func emitPropertiesChanged<State>(
        path: String, interface: String, _ table: PropertyTable<State>, from old: State, to new: State
    ) {
        let changed = table.changed(from: old, to: new)
        guard !changed.isEmpty else { return }
        emitPropertiesChanged(path: path, interface: interface, changed: changed)
    }
}

extension ExportedInterface {
    /// An interface whose methods are answered by the rows of `methods`, each given `context`,
    /// and whose properties are read by the rows of `properties` from `state()`: nil when the
    /// object has nothing to show (its timer is gone, say). The state is read once per Get, and
    /// once for all the rows of a GetAll or GetManagedObjects.
    @inlinable
    public convenience init<Context, State>(
        _ description: InterfaceDescription, methods: [BusMethod<Context>], context: Context,
        properties: PropertyTable<State>, state: @escaping () -> State?
    ) {
        self.init(
            description, call: Self.answering(methods, context: context),
            propertyReader: {
                let current = state()
                return { name in current.flatMap { properties.value(name, of: $0) } }
            })
    }
}
