import OrientProtocol
import OrientTestSupport

/// One subscriber's events, checked as they arrive against the changes `orientd classify` printed for the same
/// trace: every change, in order, none missing and none extra.
struct SubscriberTally {
    let expected: [ChangeLine]
    /// How many of the expected changes have arrived.
    private(set) var position = 0
    private(set) var subscribed = false
    /// The first thing that went wrong, if anything did.
    private(set) var problem: String?

    init(expected: [ChangeLine]) {
        self.expected = expected
    }

    var isComplete: Bool { position == expected.count }

    mutating func take(_ line: ArraySlice<UInt8>) {
        guard problem == nil else { return }
        guard let message = try? ServerMessage.decode(line) else {
            problem = "not a server message: \(String(decoding: line, as: UTF8.self))"
            return
        }
        if let ok = message.ok {
            subscribed = ok
            if !ok { problem = "subscribe refused: \(message.error?.code ?? "?")" }
            return
        }
        guard message.event != nil else { return }
        // Before the first orientation the sensor opening is an event too, with the device still unknown.
        if message.device == "unknown", position == 0 { return }
        guard position < expected.count else {
            problem = "an event after the last change: \(String(decoding: line, as: UTF8.self))"
            return
        }
        let wanted = expected[position]
        guard message.device == wanted.device, message.interface == wanted.interface,
            let t = message.t, abs(t - wanted.t) < 1e-5
        else {
            problem = "change \(position): got \(String(decoding: line, as: UTF8.self)), expected \(wanted)"
            return
        }
        position += 1
    }
}
