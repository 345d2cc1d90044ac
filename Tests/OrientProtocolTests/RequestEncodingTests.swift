import OrientCore
import OrientProtocol
import Testing

/// Requests as clients write them: the same model the daemon decodes.
@Suite("Request lines")
struct RequestEncodingTests {
    static var every: [Request] {
        let settings: [SubscriptionSettings] = [
            SubscriptionSettings(),
            SubscriptionSettings(mask: .landscape, preferred: .landscapeRight, changes: .interface, autorotate: false),
            SubscriptionSettings(mask: [.portrait, .landscapeLeft], preferred: .portraitUpsideDown),
            SubscriptionSettings(changes: .interface), SubscriptionSettings(autorotate: false),
        ]
        let operations: [Request.Operation] = [.get(nil), .unsubscribe, .lock, .unlock, .status, .setMask(nil), .setMask(.portrait)]
            + settings.map(Request.Operation.get) + settings.map(Request.Operation.subscribe)
        return operations.flatMap { operation in
            [Request(operation), Request(id: .number(7), operation), Request(id: .string("x\"y"), operation), Request(id: .number(0.5), operation)]
        }
    }

    @Test("Every request reads back as itself", arguments: Self.every)
    func roundTrip(request: Request) throws {
        let line = try JSONLineEncoder.line(request)
        #expect(try RequestDecoder.decode(Array(line.dropLast().utf8)) == request, "\(line)")
    }

    @Test("A get with default client settings still asks for a client's view, not the system's")
    func getWithDefaults() throws {
        #expect(try JSONLineEncoder.line(Request(id: .number(1), .get(SubscriptionSettings())))
            == #"{"op":"get","id":1,"mask":"all"}"# + "\n")
        #expect(try JSONLineEncoder.line(Request(.get(nil))) == #"{"op":"get"}"# + "\n")
        #expect(try JSONLineEncoder.line(Request(.setMask(nil))) == #"{"op":"set-mask","mask":"default"}"# + "\n")
        #expect(try JSONLineEncoder.line(Request(id: .number(2), .subscribe(
            SubscriptionSettings(mask: .landscape, preferred: .landscapeRight, changes: .interface, autorotate: false))))
            == #"{"op":"subscribe","id":2,"mask":"landscape","preferred":"landscape-right","changes":"interface","autorotate":false}"# + "\n")
    }

    @Test("set-mask's mask parsed on its own gives the daemon's error")
    func setMaskParsing() throws {
        #expect(try Request.Operation.setMask(parsing: "default") == .setMask(nil))
        #expect(try Request.Operation.setMask(parsing: "portrait|landscape") == .setMask([.portrait, .landscape]))
        let local = #expect(throws: ProtocolError.self) { try Request.Operation.setMask(parsing: "sideways") }
        let daemon = #expect(throws: ProtocolError.self) {
            try RequestDecoder.decode(Array(#"{"op":"set-mask","mask":"sideways"}"#.utf8))
        }
        #expect(local == daemon && local?.code == .badField)
    }
}
