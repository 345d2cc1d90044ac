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

@Suite("Reply and event lines")
struct MessagesTests {
    @Test("Strings are escaped, and every line decodes back")
    func escaping() throws {
        let error = ProtocolError(.badField, "bad \"mask\"\n\t\u{1}é", id: .string("q\"1"))
        let line = Messages.errorReply(error)
        #expect(line.hasSuffix("}\n"))
        #expect(!line.dropLast().contains("\n"))
        let decoded = try ServerMessage.decode(Array(line.utf8))
        #expect(decoded.ok == false)
        #expect(decoded.id == .string("q\"1"))
        #expect(decoded.error?.code == "bad-field")
        #expect(decoded.error?.message == "bad \"mask\"\n\t\u{1}é")
    }

    @Test("States carry the device, interface, flags, mask name and time")
    func state() throws {
        let state = OrientationState(
            device: .landscapeLeft, interface: .landscapeRight, locked: true, mask: [.portrait, .landscape],
            sensor: .available, time: 12.5)
        let event = try ServerMessage.decode(Array(Messages.orientationEvent(state).utf8))
        #expect(event.event == "orientation")
        #expect(event.device == "landscape-left")
        #expect(event.interface == "landscape-right")
        #expect(event.locked == true)
        #expect(event.mask == "all-but-upside-down")
        #expect(event.sensor == "available")
        #expect(event.t == 12.5)
        let unknown = OrientationState(device: .unknown, interface: .unknown, locked: false, mask: .all, sensor: .none, time: nil)
        #expect(Messages.stateReply(id: .number(1), unknown)
            == #"{"ok":true,"id":1,"device":"unknown","interface":"unknown","locked":false,"mask":"all","sensor":"none","t":null,"posture":"unknown","tablet-mode":null,"hinge-angle":null}"# + "\n")
    }
}

@Suite("Status reply")
struct StatusReplyTests {
    @Test("The status line decodes with the sensor's state and description")
    func roundTrip() throws {
        let report = StatusReport(
            version: "1.0", uptime: 12.3456, subscribers: 3, sampling: "on-demand", sensorState: .available,
            sensor: .init(id: "iio:device0", name: "accel_3d", mode: "buffered", rate: 50, mountMatrix: "0, 1, 0; 1, 0, 0; 0, 0, 1",
                          mountMatrixSource: "udev ACCEL_MOUNT_MATRIX", mountMatrixRepaired: true, location: "display"))
        let message = try ServerMessage.decode(Array(report.reply(id: .number(5)).utf8))
        #expect(message.ok == true && message.id == .number(5))
        #expect(message.uptime == 12.346 && message.subscribers == 3 && message.sampling == "on-demand")
        #expect(message.sensor == "available")
        #expect(message.sensorInfo?.state == "available")
        #expect(message.sensorInfo?.id == "iio:device0" && message.sensorInfo?.mode == "buffered")
        #expect(message.sensorInfo?.mountMatrixRepaired == true)
        #expect(message.sensorInfo?.reportsBase == true && message.sensorInfo?.base == nil, "null without a base sensor")
        let none = StatusReport(version: "1.0", uptime: 0, subscribers: 0, sampling: "always", sensorState: .none, sensor: nil)
        #expect(try ServerMessage.decode(Array(none.reply(id: nil).utf8)).sensor == "none")
    }

    @Test("A convertible's base sensor is named in the sensor object; a reply without the field is an older daemon's")
    func baseSensor() throws {
        let base = StatusReport.BaseSensor(
            id: "iio:device0", name: "accel_3d", path: "/sys/devices/iio:device0", mountMatrix: "1, 0, 0; 0, -1, 0; 0, 0, 1",
            mountMatrixSource: "udev ACCEL_MOUNT_MATRIX", mountMatrixRepaired: true)
        let report = StatusReport(
            version: "1.0", uptime: 1, subscribers: 0, sampling: "always", sensorState: .available,
            sensor: .init(id: "iio:device1", name: "accel_3d", mode: "polled", rate: 50, mountMatrix: "1, 0, 0; 0, 1, 0; 0, 0, 1",
                          mountMatrixSource: "none (identity)", mountMatrixRepaired: false, location: "display", base: base))
        let line = report.reply(id: nil)
        #expect(line.contains(#""base":{"id":"iio:device0","name":"accel_3d","path":"/sys/devices/iio:device0","mount-matrix":"1, 0, 0; 0, -1, 0; 0, 0, 1","mount-matrix-source":"udev ACCEL_MOUNT_MATRIX","mount-matrix-repaired":true}}}"#), "\(line)")
        let info = try #require(ServerMessage.decode(Array(line.utf8)).sensorInfo)
        #expect(info.reportsBase && info.base?.id == "iio:device0" && info.base?.path == "/sys/devices/iio:device0")
        #expect(info.base?.mountMatrixRepaired == true)
        let none = StatusReport(version: "1.0", uptime: 0, subscribers: 0, sampling: "always", sensorState: .none, sensor: nil)
        #expect(none.reply(id: nil).hasSuffix(#""sensor":{"state":"none","base":null}}"# + "\n"))
        let older = try ServerMessage.decode(Array(#"{"ok":true,"sensor":{"state":"available","id":"iio:device0"}}"#.utf8))
        #expect(older.sensorInfo?.reportsBase == false && older.sensorInfo?.base == nil)
    }
}
