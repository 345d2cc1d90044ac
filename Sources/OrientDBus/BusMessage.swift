import CSystemd

/// Writing and reading sd-bus messages field by field: sd-bus's own `sd_bus_message_append` and `_read` are variadic,
/// which Swift cannot call. Shared by the facade's signals and replies and its questions to polkit.
enum BusMessage {
    /// sd-bus's code for a D-Bus type (`s`, `b`, `a`, `e`, `v`, `r` ...), as its C functions take it.
    static func code(_ type: Unicode.Scalar) -> CChar { CChar(UInt8(ascii: type)) }

    /// Opens a container of `type` (`a`, `e`, `v`, `r`) holding `contents` (its signature).
    static func open(_ message: OpaquePointer?, _ type: Unicode.Scalar, _ contents: String) throws(BusError) {
        try check("sd_bus_message_open_container", sd_bus_message_open_container(message, code(type), contents))
    }

    /// Closes the innermost open container.
    static func close(_ message: OpaquePointer?) throws(BusError) {
        try check("sd_bus_message_close_container", sd_bus_message_close_container(message))
    }

    /// Appends a string.
    static func append(_ message: OpaquePointer?, _ text: String) throws(BusError) {
        try check("sd_bus_message_append_basic", text.withCString { sd_bus_message_append_basic(message, code("s"), $0) })
    }
}
