import FoundationEssentials
import OrientCore
import OrientProtocol
import Testing

/// The one-value sensors on the wire: their events, their members in a `get` reply, and in `status`.
@Suite("Light and proximity lines")
struct ReadingMessageTests {
    static let flat = OrientationState(
        device: .faceUp, interface: .landscapeLeft, rotation: 90, locked: false, mask: .all, sensor: .available, time: 81.2)
    static let light = ReadingState(kind: .light, present: true, value: .light(level: 50, unit: .lux))
    static let dim = ReadingState(kind: .light, present: true, value: .light(level: 0.25, unit: .vendor))
    static let near = ReadingState(kind: .proximity, present: true, value: .proximity(near: true))
    static let noLight = ReadingState(kind: .light, present: false)
    static let notReadYet = ReadingState(kind: .proximity, present: true)

    static let status = StatusReport(
        version: "0.1.0", uptime: 2, subscribers: 1, sampling: "on-demand", sensorState: .available, sensor: nil,
        readingSensors: [
            .init(kind: "light", present: true, open: true, id: "iio:device1", name: "als",
                  foundBy: "IIO_SENSOR_PROXY_TYPE iio-poll-als", interval: 0.8, value: .light(level: 50, unit: .lux)),
            .init(kind: "proximity", present: true, open: false, id: "iio:device2", name: "prox",
                  foundBy: "channel in_proximity_raw", interval: 0.7, details: [.nearLevel: 100], value: .proximity(near: false)),
            .init(kind: "compass", present: false),
        ])

    static var every: [ServerMessage] {
        [
            .reading(light), .reading(dim), .reading(near), .reading(noLight), .reading(notReadYet),
            .reading(ReadingState(kind: .proximity, present: false)),
            .state(id: .number(1), flat, fresh: true, readings: [light, near]),
            .state(id: nil, flat, fresh: false, readings: [noLight]),
            .status(id: .number(7), status),
            .status(id: nil, StatusReport(
                version: "1", uptime: 0, subscribers: 0, sampling: "always", sensorState: .none, sensor: nil, readingSensors: [])),
            .status(id: nil, StatusReport(
                version: "1", uptime: 0, subscribers: 0, sampling: "always", sensorState: .none, sensor: nil,
                readingSensors: [.init(kind: "light", present: nil, open: false)])),
        ]
    }

    @Test("Every message reads back as itself, from its line and from Foundation's encoding of it", arguments: Self.every)
    func roundTrip(message: ServerMessage) throws {
        let line = message.line
        #expect(line.hasSuffix("}\n") && !line.dropLast().contains("\n"), "one line: \(line)")
        #expect(try ServerMessage.decode(Array(line.utf8)) == message, "\(line)")
        #expect(try ServerMessage.decode(JSONEncoder().encode(message)) == message)
    }

    @Test("The lines are byte for byte PROTOCOL.md's")
    func wireBytes() {
        #expect(ServerMessage.reading(Self.light).line == #"{"event":"light","present":true,"level":50,"unit":"lux"}"# + "\n")
        #expect(ServerMessage.reading(Self.near).line == #"{"event":"proximity","present":true,"near":true}"# + "\n")
        #expect(ServerMessage.reading(Self.noLight).line == #"{"event":"light","present":false,"level":null,"unit":null}"# + "\n")
        #expect(ServerMessage.state(id: .number(1), Self.flat, fresh: true, readings: [Self.light, Self.near]).line
            == #"{"ok":true,"id":1,"device":"face-up","interface":"landscape-left","rotation":90,"locked":false,"mask":"all","sensor":"available","t":81.2,"posture":"unknown","tablet-mode":null,"hinge-angle":null,"fresh":true,"light":{"present":true,"level":50,"unit":"lux"},"proximity":{"present":true,"near":true}}"# + "\n")
        #expect(ServerMessage.state(id: .number(1), Self.flat, fresh: true).line.hasSuffix(#""fresh":true}"# + "\n"),
            "a reply that asked for none is as it always was")
        #expect(ServerMessage.status(id: nil, Self.status).line.hasSuffix(
            #""sensor":{"state":"available","base":null,"hinge":null},"readings":{"light":{"present":true,"open":true,"id":"iio:device1","name":"als","found-by":"IIO_SENSOR_PROXY_TYPE iio-poll-als","interval":0.8,"level":50,"unit":"lux"},"proximity":{"present":true,"open":false,"id":"iio:device2","name":"prox","found-by":"channel in_proximity_raw","interval":0.7,"near-level":100,"near":false},"compass":{"present":false}}}"# + "\n"))
    }

    @Test("What a client asks of a message: the event's name and a kind's state, in an event or a get reply")
    func fields() {
        #expect(ServerMessage.reading(Self.near).event == "proximity")
        #expect(ServerMessage.reading(Self.near).reading(.proximity) == Self.near)
        #expect(ServerMessage.reading(Self.near).reading(.light) == nil)
        #expect(ServerMessage.reading(Self.near).state == nil && ServerMessage.reading(Self.near).ok == nil)
        let reply = ServerMessage.state(id: .number(1), Self.flat, fresh: true, readings: [Self.light])
        #expect(reply.reading(.light)?.level == 50 && reply.reading(.light)?.unit == "lux")
        #expect(reply.reading(.proximity) == nil)
    }

    @Test("A status from a daemon before readings has none; a kind this client does not know is skipped")
    func olderAndNewerStatus() throws {
        let older = try ServerMessage.decode(Array(
            #"{"ok":true,"version":"0.1.0","uptime":1,"subscribers":0,"sampling":"always","sensor":{"state":"none","base":null}}"#.utf8))
        #expect(older.statusReport?.readingSensors == nil)
        let newer = try ServerMessage.decode(Array(
            #"{"ok":true,"version":"0.2","uptime":1,"subscribers":0,"sampling":"always","sensor":{"state":"none","base":null},"readings":{"humidity":{"present":true},"light":{"present":false,"open":false,"id":null,"name":null,"found-by":null,"interval":null,"level":null,"unit":null}}}"#.utf8))
        #expect(newer.statusReport?.readingSensors == [.init(kind: "light", present: false, open: false)])
    }
}

/// What each kind of sensor is on the socket, from its one switch (``SensorKind/socket``).
@Suite("Sensor kinds on the socket")
struct SocketOfferTests {
    @Test("Light and proximity are readings a client may ask for, in that order; the orientation is every message")
    func offered() {
        #expect(SensorKind.readings == [.light, .proximity])
        #expect(SensorKind.accelerometer.socket == .orientation)
    }
}
