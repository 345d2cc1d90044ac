import FoundationEssentials
import OrientCore
import OrientProtocol
import Testing

/// The daemon's lines: one model, encoded in the protocol's order and read back by clients.
@Suite("Reply, event and status lines")
struct ServerMessageTests {
    static let sensor = StatusReport.Sensor(
        id: "iio:device0", name: "accel_3d", mode: "polled", rate: 50, mountMatrix: "0, 1, 0; 1, 0, 0; 0, 0, 1",
        mountMatrixSource: "udev ACCEL_MOUNT_MATRIX", mountMatrixRepaired: true, location: "display")
    static let base = StatusReport.BaseSensor(
        id: "iio:device0", name: "accel_3d", path: "/sys/devices/pci0000:00/.../iio:device0",
        mountMatrix: "1, 0, 0; 0, -1, 0; 0, 0, -1", mountMatrixSource: "udev ACCEL_MOUNT_MATRIX", mountMatrixRepaired: false)

    /// One of every kind of message, with and without the members that may be absent or null.
    static var every: [ServerMessage] {
        let flat = OrientationState(
            device: .faceUp, interface: .landscapeLeft, rotation: 90, locked: false, mask: .all, sensor: .available,
            time: 81.2)
        let convertible = OrientationState(
            device: .portrait, interface: .portrait, rotation: 0, locked: true, mask: [.portrait, .landscapeLeft], sensor: .available,
            time: 12.48, hinge: HingeState(posture: .laptop, tabletMode: false, hingeAngle: 112))
        let none = OrientationState(device: .unknown, interface: .unknown, locked: false, mask: .landscape, sensor: .none, time: nil)
        var withBase = sensor
        withBase.base = base
        withBase.rate = nil
        return [
            .state(id: .number(1), flat, fresh: true), .state(id: .string("a\"b"), convertible), .state(id: nil, none, fresh: false),
            .event(flat), .event(convertible), .event(none),
            .done(id: .number(3)), .done(id: nil),
            .status(id: .number(7), StatusReport(
                version: "0.1.0", uptime: 3600.25, subscribers: 2, sampling: "on-demand", naturalOrientation: "landscape",
                naturalOrientationSource: "panel eDP-1, 1920x1080", sensorState: .available, sensor: sensor)),
            .status(id: nil, StatusReport(
                version: "1", uptime: 0, subscribers: 0, sampling: "always", sensorState: .unavailable, sensor: withBase)),
            .status(id: nil, StatusReport(version: "1", uptime: 1, subscribers: 0, sampling: "always", sensorState: .none, sensor: nil)),
            .status(id: nil, StatusReport(
                version: "0.0.9", uptime: 1, subscribers: 0, sampling: "always", sensorState: .available, sensor: sensor,
                reportsBase: false)),
        ] + ErrorCode.allCases.map { .error(ProtocolError($0, "why \"\($0.rawValue)\"\n\t\u{1}é", id: .number(8))) }
            + [.error(ProtocolError(.badJSON, "not valid JSON"))]
    }

    @Test("Every message reads back as itself, from its line and from Foundation's encoding of it",
          arguments: Self.every)
    func roundTrip(message: ServerMessage) throws {
        let line = message.line
        #expect(line.hasSuffix("}\n") && !line.dropLast().contains("\n"), "one line: \(line)")
        #expect(try ServerMessage.decode(Array(line.utf8)) == message, "\(line)")
        // The model's encode(to:) is ordinary Codable: any encoder's output reads back the same.
        let foundation = try JSONEncoder().encode(message)
        #expect(try ServerMessage.decode(foundation) == message)
    }

    @Test("The lines are byte for byte PROTOCOL.md's: members in its order, numbers and nulls as it shows them")
    func wireBytes() {
        let flat = OrientationState(
            device: .faceUp, interface: .landscapeLeft, rotation: 90, locked: false, mask: .all, sensor: .available,
            time: 81.2)
        #expect(ServerMessage.state(id: .number(1), flat, fresh: true).line
            == #"{"ok":true,"id":1,"device":"face-up","interface":"landscape-left","rotation":90,"locked":false,"mask":"all","sensor":"available","t":81.2,"posture":"unknown","tablet-mode":null,"hinge-angle":null,"fresh":true}"# + "\n")
        let laptop = OrientationState(
            device: .portrait, interface: .portrait, rotation: 0, locked: false, mask: .all, sensor: .available,
            time: 12.48, hinge: HingeState(posture: .laptop, tabletMode: false, hingeAngle: 112))
        #expect(ServerMessage.event(laptop).line
            == #"{"event":"orientation","device":"portrait","interface":"portrait","rotation":0,"locked":false,"mask":"all","sensor":"available","t":12.48,"posture":"laptop","tablet-mode":false,"hinge-angle":112}"# + "\n")
        #expect(ServerMessage.done(id: .number(3)).line == #"{"ok":true,"id":3}"# + "\n")
        let status = StatusReport(
            version: "0.1.0", uptime: 3600.25, subscribers: 2, sampling: "on-demand", naturalOrientation: "landscape",
            naturalOrientationSource: "panel eDP-1, 1920x1080", sensorState: .available, sensor: Self.sensor)
        #expect(ServerMessage.status(id: .number(7), status).line
            == #"{"ok":true,"id":7,"version":"0.1.0","uptime":3600.25,"subscribers":2,"sampling":"on-demand","natural-orientation":"landscape","natural-orientation-source":"panel eDP-1, 1920x1080","sensor":{"state":"available","id":"iio:device0","name":"accel_3d","mode":"polled","rate":50,"location":"display","mount-matrix":"0, 1, 0; 1, 0, 0; 0, 0, 1","mount-matrix-source":"udev ACCEL_MOUNT_MATRIX","mount-matrix-repaired":true,"base":null,"hinge":null}}"# + "\n")
        var withBase = Self.sensor
        withBase.base = Self.base
        #expect(ServerMessage.status(id: nil, StatusReport(
            version: "1", uptime: 1, subscribers: 0, sampling: "always", sensorState: .available, sensor: withBase)).line
            .hasSuffix(#""base":{"id":"iio:device0","name":"accel_3d","path":"/sys/devices/pci0000:00/.../iio:device0","mount-matrix":"1, 0, 0; 0, -1, 0; 0, 0, -1","mount-matrix-source":"udev ACCEL_MOUNT_MATRIX","mount-matrix-repaired":false},"hinge":null}}"# + "\n"))
        var withHinge = Self.sensor
        withHinge.hinge = StatusReport.HingeSensor(
            id: "iio:device4", name: "cros-ec-lid-angle", path: "/sys/devices/platform/cros-ec-lid-angle.0/iio:device4")
        #expect(ServerMessage.status(id: nil, StatusReport(
            version: "1", uptime: 1, subscribers: 0, sampling: "always", sensorState: .available, sensor: withHinge)).line
            .hasSuffix(#""base":null,"hinge":{"id":"iio:device4","name":"cros-ec-lid-angle","path":"/sys/devices/platform/cros-ec-lid-angle.0/iio:device4"}}}"# + "\n"))
        let none = StatusReport(version: "1.0", uptime: 0, subscribers: 0, sampling: "always", sensorState: .none, sensor: nil)
        #expect(ServerMessage.status(id: nil, none).line.hasSuffix(#""sensor":{"state":"none","base":null,"hinge":null}}"# + "\n"))
        #expect(ServerMessage.error(ProtocolError(.badField, "bad \"mask\"\n\t\u{1}é", id: .string("q\"1"))).line
            == #"{"ok":false,"id":"q\"1","error":{"code":"bad-field","message":"bad \"mask\"\n\t\u0001é"}}"# + "\n")
    }

    @Test("Numbers: whole values without a fraction, others in the shortest exact form, NaN as null")
    func numbers() throws {
        func time(_ t: Double?) -> String {
            let line = ServerMessage.event(OrientationState(
                device: .portrait, interface: .portrait, locked: false, mask: .all, sensor: .available, time: t)).line
            return String(line.split(separator: ",").first { $0.hasPrefix(#""t":"#) }!.dropFirst(4))
        }
        #expect(time(3) == "3")
        #expect(time(-0.0) == "0")
        #expect(time(0.1 + 0.2) == "0.30000000000000004")
        #expect(time(1e20) == "1e+20")
        #expect(time(.nan) == "null")
        #expect(time(nil) == "null")
    }

    @Test("A state from a daemon before convertibles reads as posture unknown; unknown members are ignored")
    func olderAndNewerDaemons() throws {
        let older = try ServerMessage.decode(Array(
            #"{"event":"orientation","device":"portrait","interface":"portrait","locked":false,"mask":"all","sensor":"available","t":1}"#.utf8))
        #expect(older.state?.hinge == .unknown)
        #expect(older.device == "portrait" && older.posture == "unknown" && older.tabletMode == nil)
        let newer = try ServerMessage.decode(Array(
            #"{"ok":true,"id":2,"device":"portrait","interface":"portrait","locked":false,"mask":"all","sensor":"available","t":null,"posture":"unknown","tablet-mode":null,"hinge-angle":null,"future":{"a":[1]}}"#.utf8))
        #expect(newer.id == .number(2) && newer.state?.time == nil)
        let olderStatus = try ServerMessage.decode(Array(
            #"{"ok":true,"version":"0.0.9","uptime":1,"subscribers":0,"sampling":"always","sensor":{"state":"available","id":"iio:device0","name":"accel_3d","mode":"polled","rate":50,"location":"display","mount-matrix":"1, 0, 0; 0, 1, 0; 0, 0, 1","mount-matrix-source":"none (identity)","mount-matrix-repaired":false}}"#.utf8))
        #expect(olderStatus.statusReport?.reportsBase == false && olderStatus.sensorInfo?.base == nil)
    }

    @Test("Lines that are no message are refused", arguments: [
        #"{"event":"rotation","device":"portrait"}"#, #"{"device":"portrait"}"#, #"{"ok":false,"error":{"code":"nope","message":""}}"#,
        #"{"ok":true,"device":"sideways","interface":"portrait","locked":false,"mask":"all","sensor":"available","t":1}"#,
        #"{"ok":true,"device":"portrait","interface":"portrait","locked":false,"mask":"up","sensor":"available","t":1}"#, "[1]",
    ])
    func refused(line: String) {
        #expect(throws: DecodingError.self) { try ServerMessage.decode(Array(line.utf8)) }
    }
}
