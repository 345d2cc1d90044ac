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
        let readings: [Set<SensorKind>] = [[.light], [.proximity], [.light, .proximity]]
        let operations: [Request.Operation] = [.get(nil), .unsubscribe, .lock, .unlock, .status, .setMask(nil), .setMask(.portrait)]
            + settings.map { .get($0) } + settings.map { .subscribe($0) }
            + readings.flatMap { [.get(nil, readings: $0), .get(settings[1], readings: $0), .subscribe(settings[1], readings: $0)] }
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

    @Test("readings are written only when asked for, in one order, after the client's settings")
    func readingsMember() throws {
        #expect(try JSONLineEncoder.line(Request(id: .number(1), .get(nil, readings: [.proximity, .light])))
            == #"{"op":"get","id":1,"readings":["light","proximity"]}"# + "\n")
        #expect(try JSONLineEncoder.line(Request(id: .number(2), .subscribe(SubscriptionSettings(), readings: [.light])))
            == #"{"op":"subscribe","id":2,"mask":"all","readings":["light"]}"# + "\n")
        #expect(try JSONLineEncoder.line(Request(id: .number(3), .subscribe(SubscriptionSettings())))
            == #"{"op":"subscribe","id":3,"mask":"all"}"# + "\n", "a request without is as it always was")
    }

    @Test("readings read back: a get with readings alone keeps the system's view; duplicates are one; an empty list asks for none")
    func readingsDecoded() throws {
        func decode(_ line: String) throws -> Request { try RequestDecoder.decode(Array(line.utf8)) }
        #expect(try decode(#"{"op":"get","readings":["light"]}"#).operation == .get(nil, readings: [.light]))
        #expect(try decode(#"{"op":"subscribe","readings":["proximity","proximity","light"]}"#).operation
            == .subscribe(SubscriptionSettings(), readings: [.light, .proximity]))
        #expect(try decode(#"{"op":"subscribe","readings":[]}"#).operation == .subscribe(SubscriptionSettings()))
        #expect(try decode(#"{"op":"status","readings":["light"]}"#).operation == .status, "other operations ignore it")
    }

    @Test("Bad readings are refused naming the field: the compass with its reason, an unknown kind, a wrong type", arguments: [
        (#"{"op":"subscribe","id":4,"readings":["compass"]}"#, "\"readings\": the compass is served on D-Bus only, where polkit decides each claim"),
        (#"{"op":"get","id":4,"readings":["light","lux"]}"#, "\"readings\": unknown reading \"lux\"; expected light or proximity"),
        // The orientation is in every state already; it is no reading to ask for.
        (#"{"op":"get","id":4,"readings":["accelerometer"]}"#, "\"readings\": unknown reading \"accelerometer\""),
        (#"{"op":"subscribe","id":4,"readings":"light"}"#, "readings"),
    ])
    func badReadings(line: String, message: String) throws {
        let error = #expect(throws: ProtocolError.self) { try RequestDecoder.decode(Array(line.utf8)) }
        #expect(error?.code == .badField)
        // A wrong type is found by the JSON decoder, before the id is read (as for every field).
        if message != "readings" { #expect(error?.id == .number(4)) }
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
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
