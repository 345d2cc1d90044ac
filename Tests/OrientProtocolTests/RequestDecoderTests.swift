import OrientCore
import OrientProtocol
import Testing

@Suite("Request decoding")
struct RequestDecoderTests {
    private func decode(_ text: String) throws(ProtocolError) -> Request { try RequestDecoder.decode(Array(text.utf8)) }

    @Test("Every operation decodes, with its fields and id")
    func operations() throws {
        #expect(try decode(#"{"op":"get"}"#) == Request(.get(nil)))
        #expect(try decode(#"{"op":"get","id":7}"#) == Request(id: .number(7), .get(nil)))
        #expect(try decode(#"{"op":"status","id":"a"}"#) == Request(id: .string("a"), .status))
        #expect(try decode(#"{"op":"lock"}"#).operation == .lock)
        #expect(try decode(#"{"op":"unlock"}"#).operation == .unlock)
        #expect(try decode(#"{"op":"unsubscribe"}"#).operation == .unsubscribe)
        #expect(try decode(#"{"op":"set-mask","mask":"portrait|landscape"}"#).operation == .setMask([.portrait, .landscape]))
        #expect(try decode(#"{"op":"set-mask","mask":"default"}"#).operation == .setMask(nil))
        #expect(try decode(#"{"op":"subscribe"}"#).operation == .subscribe(SubscriptionSettings()))
        let full = try decode(#"{"op":"subscribe","mask":"landscape","preferred":"landscape-right","changes":"interface","autorotate":false,"future":1}"#)
        #expect(full.operation == .subscribe(SubscriptionSettings(
            mask: .landscape, preferred: .landscapeRight, changes: .interface, autorotate: false)))
        #expect(try decode(#"{"op":"get","mask":"landscape","preferred":"landscape-left"}"#).operation
            == .get(SubscriptionSettings(mask: .landscape, preferred: .landscapeLeft)))
        #expect(try decode(#"{"op":"get","autorotate":false}"#).operation == .get(SubscriptionSettings(autorotate: false)))
    }

    @Test("Bad requests name the problem with a stable code, echoing the id when there is one", arguments: [
        ("not json", ErrorCode.badJSON, nil as RequestID?),
        ("[1,2]", .badRequest, nil),
        (#"{"id":3}"#, .badRequest, .number(3)),
        (#"{"op":"fly","id":4}"#, .unknownOperation, .number(4)),
        (#"{"op":"subscribe","mask":"sideways","id":"m"}"#, .badField, .string("m")),
        (#"{"op":"get","preferred":"face-up","id":"g"}"#, .badField, .string("g")),
        (#"{"op":"subscribe","mask":5}"#, .badField, nil),
        (#"{"op":"subscribe","preferred":"up"}"#, .badField, nil),
        (#"{"op":"subscribe","changes":"some"}"#, .badField, nil),
        (#"{"op":"subscribe","autorotate":"no"}"#, .badField, nil),
        (#"{"op":"set-mask"}"#, .badField, nil),
        (#"{"op":"get","id":{"x":1}}"#, .badField, nil),
    ])
    func badRequests(text: String, code: ErrorCode, id: RequestID?) {
        #expect {
            try decode(text)
        } throws: { error in
            guard let error = error as? ProtocolError else { return false }
            return error.code == code && error.id == id && !error.message.isEmpty
        }
    }
}
