import FoundationEssentials
import OrientCore
import OrientProtocol
import Testing

/// What a sensor ran into since the daemon started, in `status`.
@Suite("Incidents in status")
struct StatusIncidentsTests {
    static let report = StatusReport(
        version: "0.1.0", uptime: 60, subscribers: 1, sampling: "on-demand", sensorState: .available, sensor: nil,
        readingSensors: [],
        incidents: [
            .init(sensor: "accelerometer", count: 2, last: "iio:device0: buffered capture delivered nothing for 2.0 s again after it was opened again; polling instead", at: 12.5),
            .init(sensor: "light", count: 1, last: "resumed from sleep: opened again", at: 40),
        ])

    @Test("Each sensor's count, last incident and its time are written after the readings, and read back")
    func wire() throws {
        let line = ServerMessage.status(id: nil, Self.report).line
        #expect(line.hasSuffix(
            #""readings":{},"incidents":[{"sensor":"accelerometer","count":2,"last":"iio:device0: buffered capture delivered nothing for 2.0 s again after it was opened again; polling instead","at":12.5},{"sensor":"light","count":1,"last":"resumed from sleep: opened again","at":40}]}"# + "\n"),
            "\(line)")
        #expect(try ServerMessage.decode(Array(line.utf8)) == .status(id: nil, Self.report))
    }

    @Test("A daemon that does not say reads as nil; one that says nothing happened, as empty")
    func absent() throws {
        var quiet = Self.report
        quiet.incidents = nil
        let without = ServerMessage.status(id: nil, quiet).line
        #expect(!without.contains("incidents"))
        #expect(try ServerMessage.decode(Array(without.utf8)).statusReport?.incidents == nil)
        quiet.incidents = []
        #expect(try ServerMessage.decode(Array(ServerMessage.status(id: nil, quiet).line.utf8)).statusReport?.incidents == [])
    }

    @Test("The compass's incidents are never shown: they would tell that someone uses it")
    func compassHidden() {
        #expect(SensorKind.allCases.filter(StatusReport.showsIncidents) == [.accelerometer, .light, .proximity])
    }
}
