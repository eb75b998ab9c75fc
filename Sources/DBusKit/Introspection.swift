/// Writes introspection XML in the format of the D-Bus specification.
enum IntrospectionXML {
    static let header = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">

        """

    static func document(interfaces: [InterfaceDescription], children: [String]) -> String {
        var xml = header + "<node>\n"
        for interface in interfaces { write(interface, into: &xml) }
        for child in children { xml += " <node name=\"\(XMLText.escaped(child))\"/>\n" }
        xml += "</node>\n"
        return xml
    }

    private static func write(_ interface: InterfaceDescription, into xml: inout String) {
        xml += " <interface name=\"\(XMLText.escaped(interface.name))\">\n"
        for method in interface.methods {
            let empty = method.inputs.isEmpty && method.outputs.isEmpty && method.annotations.isEmpty
            xml += "  <method name=\"\(XMLText.escaped(method.name))\"\(empty ? "/" : "")>\n"
            if empty { continue }
            for arg in method.inputs {
                xml +=
                    "   <arg name=\"\(XMLText.escaped(arg.name))\" type=\"\(arg.type.signature)\" direction=\"in\"/>\n"
            }
            for arg in method.outputs {
                xml +=
                    "   <arg name=\"\(XMLText.escaped(arg.name))\" type=\"\(arg.type.signature)\" direction=\"out\"/>\n"
            }
            write(method.annotations, indent: "   ", into: &xml)
            xml += "  </method>\n"
        }
        for signal in interface.signals {
            let empty = signal.arguments.isEmpty && signal.annotations.isEmpty
            xml += "  <signal name=\"\(XMLText.escaped(signal.name))\"\(empty ? "/" : "")>\n"
            if empty { continue }
            for arg in signal.arguments {
                xml += "   <arg name=\"\(XMLText.escaped(arg.name))\" type=\"\(arg.type.signature)\"/>\n"
            }
            write(signal.annotations, indent: "   ", into: &xml)
            xml += "  </signal>\n"
        }
        for property in interface.properties {
            let open =
                "  <property name=\"\(XMLText.escaped(property.name))\" type=\"\(property.type.signature)\" access=\"\(property.access.rawValue)\""
            if property.annotations.isEmpty {
                xml += open + "/>\n"
            } else {
                xml += open + ">\n"
                write(property.annotations, indent: "   ", into: &xml)
                xml += "  </property>\n"
            }
        }
        write(interface.annotations, indent: "  ", into: &xml)
        xml += " </interface>\n"
    }

    private static func write(_ annotations: [InterfaceDescription.Annotation], indent: String, into xml: inout String)
    {
        for annotation in annotations {
            xml +=
                "\(indent)<annotation name=\"\(XMLText.escaped(annotation.name))\" value=\"\(XMLText.escaped(annotation.value))\"/>\n"
        }
    }
}
