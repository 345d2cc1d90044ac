import CSystemd

#if canImport(Glibc)
import Glibc
#endif

/// Asks polkit whether a bus client may claim a sensor, as iio-sensor-proxy 3.4 and later ask it: the action
/// `net.hadess.SensorProxy.claim-sensor` (allowed to active local sessions by its policy), the client as a
/// `system-bus-name` subject, no details and no interaction. Asked on the bus thread without blocking it: other
/// clients are served while polkit thinks (iio-sensor-proxy blocks its main loop on the call).
enum PolkitCheck {
    static let action = "net.hadess.SensorProxy.claim-sensor"
    /// How long polkit may take to answer before the claim is refused, in microseconds.
    static let timeout: UInt64 = 5_000_000

    enum Answer: Equatable {
        case allowed
        case refused
        /// polkit could not be asked, or gave an error (not running, no answer in time): why, as sd-bus says it.
        case failed(String)
    }

    /// Sends CheckAuthorization for the sender of `call`; `answered` is called with `call` on the bus thread, from
    /// `sd_bus_process` (or at once when the question cannot be sent). `call` is kept referenced until then, or
    /// until the connection goes.
    static func ask(about call: OpaquePointer, on bus: OpaquePointer?, answered: @escaping (OpaquePointer, Answer) -> Void) {
        let sender = sd_bus_message_get_sender(call).map { String(cString: $0) } ?? ""
        let pending = Pending(call, answered)
        do throws(BusError) {
            let message = try request(for: sender, on: bus)
            defer { sd_bus_message_unref(message) }
            var slot: OpaquePointer?
            let context = Unmanaged.passRetained(pending).toOpaque()
            let result = sd_bus_call_async(bus, &slot, message, handleReply, context, timeout)
            guard result >= 0 else {
                Unmanaged<Pending>.fromOpaque(context).release()
                throw BusError("sd_bus_call_async", result: result)
            }
            // The slot frees the context once the reply is handled, or when the connection goes.
            sd_bus_slot_set_destroy_callback(slot, releaseContext)
            sd_bus_slot_set_floating(slot, 1)
            sd_bus_slot_unref(slot)
        } catch {
            pending.answer(.failed("\(error)"))
        }
    }

    /// CheckAuthorization((sa{sv}) subject, s action, a{ss} details, u flags, s cancellation id).
    private static func request(for sender: String, on bus: OpaquePointer?) throws(BusError) -> OpaquePointer? {
        var message: OpaquePointer?
        try check(
            "sd_bus_message_new_method_call",
            sd_bus_message_new_method_call(
                bus, &message, "org.freedesktop.PolicyKit1", "/org/freedesktop/PolicyKit1/Authority",
                "org.freedesktop.PolicyKit1.Authority", "CheckAuthorization"))
        do throws(BusError) {
            try BusMessage.open(message, "r", "sa{sv}")
            try BusMessage.append(message, "system-bus-name")
            try BusMessage.open(message, "a", "{sv}")
            try BusMessage.open(message, "e", "sv")
            try BusMessage.append(message, "name")
            try BusMessage.open(message, "v", "s")
            try BusMessage.append(message, sender)
            for _ in 0..<4 { try BusMessage.close(message) }
            try BusMessage.append(message, action)
            try BusMessage.open(message, "a", "{ss}")
            try BusMessage.close(message)
            var noFlags: UInt32 = 0
            try check("sd_bus_message_append_basic", sd_bus_message_append_basic(message, BusMessage.code("u"), &noFlags))
            try BusMessage.append(message, "")
        } catch {
            sd_bus_message_unref(message)
            throw error
        }
        return message
    }

    /// The answer in a reply: its first field, whether the subject is authorized.
    fileprivate static func answer(in reply: OpaquePointer?) -> Answer {
        if sd_bus_message_is_method_error(reply, nil) > 0 {
            let error = sd_bus_message_get_error(reply)
            let text = error?.pointee.message.map { String(cString: $0) } ?? error?.pointee.name.map { String(cString: $0) }
            return .failed(text ?? "an error with no message")
        }
        var authorized: Int32 = 0
        guard sd_bus_message_enter_container(reply, BusMessage.code("r"), "bba{ss}") > 0,
            sd_bus_message_read_basic(reply, BusMessage.code("b"), &authorized) > 0
        else { return .failed("a reply that is not (bba{ss})") }
        return authorized != 0 ? .allowed : .refused
    }

    /// The call a question is about, and what its answer is handed to.
    fileprivate final class Pending {
        private let call: OpaquePointer
        private let answered: (OpaquePointer, Answer) -> Void

        init(_ call: OpaquePointer, _ answered: @escaping (OpaquePointer, Answer) -> Void) {
            self.call = sd_bus_message_ref(call)
            self.answered = answered
        }

        func answer(_ answer: Answer) { answered(call, answer) }

        deinit { sd_bus_message_unref(call) }
    }
}

private let handleReply: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<sd_bus_error>?) -> Int32 = {
    reply, context, _ in
    Unmanaged<PolkitCheck.Pending>.fromOpaque(context!).takeUnretainedValue().answer(PolkitCheck.answer(in: reply))
    return 0
}

private let releaseContext: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
    Unmanaged<PolkitCheck.Pending>.fromOpaque(context!).release()
}
