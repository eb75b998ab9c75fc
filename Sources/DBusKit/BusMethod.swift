/// One row of an object's method table: the method as introspection shows it, and what answers
/// it. An object lists its rows beside its code, as logind's `sd_bus_vtable`s do, so that a
/// method's name, signature and handler are written once, in one place:
///
///     static let methods: [BusMethod<TimerObject.Context>] = [
///         BusMethod(TimerMember.pause) { timer, _ in try timer.perform(.pause(timer.id)) },
///         BusMethod(TimerMember.adjust, in: [.init("delta_usec", .int64)]) { timer, call in … },
///     ]
///
/// The handler gets the object's context (what the object is made with: a service, an id) and
/// the call, whose arguments the object server has already checked against `in`.
public struct BusMethod<Context>: Sendable {
    public typealias Handler = @Sendable (Context, MethodCall) throws(DBusError) -> MethodReply

    public let description: InterfaceDescription.Method
    @usableFromInline let handle: Handler

    public init(
        _ name: String, in inputs: [InterfaceDescription.Argument] = [],
        out outputs: [InterfaceDescription.Argument] = [], annotations: [InterfaceDescription.Annotation] = [],
        _ handle: @escaping Handler
    ) {
        description = InterfaceDescription.Method(name, in: inputs, out: outputs, annotations: annotations)
        self.handle = handle
    }
}

extension ExportedInterface {
    /// An interface whose methods are answered by the rows of `methods` (those of `description`),
    /// each given `context`, and which has no properties (those have a `PropertyTable`).
    @inlinable
    public convenience init<Context>(
        _ description: InterfaceDescription, methods: [BusMethod<Context>], context: Context
    ) {
        self.init(description, call: Self.answering(methods, context: context))
    }

    /// What answers a call from the rows of `methods`. Inlinable so that the closure answering
    /// each call is specialised for the object's context: unspecialised, it would look type
    /// metadata up on every call.
    @inlinable
    static func answering<Context>(
        _ methods: [BusMethod<Context>], context: Context
    ) -> (MethodCall) throws(DBusError) -> MethodReply {
        { call throws(DBusError) in
            guard let row = methods.first(where: { $0.description.name == call.member }) else {
                throw DBusError(.unknownMethod, "no method \(call.member)")
            }
            return try row.handle(context, call)
        }
    }
}
