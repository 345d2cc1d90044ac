import ArgumentParser
import OrientCore
import OrientProtocol

extension Orientctl {
    /// `orientctl status`: what the daemon is doing.
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the daemon's sensor, clients and version.")

        @OptionGroup var connection: ConnectionOptions
        @Flag(help: "Print the daemon's reply as one line of JSON.") var json = false

        /// One line for a one-value sensor: `light: present, open: als (iio:device1), found by ..., every 0.8 s, 50 lux`.
        static func describe(_ sensor: StatusReport.ReadingSensor) -> String {
            var line = "\(sensor.kind): " + (sensor.present.map { $0 ? "present" : "none" } ?? "not known yet")
            if let open = sensor.open { line += open ? ", open" : ", closed" }
            if let id = sensor.id { line += ": \(sensor.name.map { $0 == id ? id : "\($0) (\(id))" } ?? id)" }
            if let foundBy = sensor.foundBy { line += ", found by \(foundBy)" }
            if let interval = sensor.interval { line += ", every \(StateText.number(interval)) s" }
            for detail in SensorDetail.allCases {
                if let value = sensor.details[detail] { line += ", \(detail.label) \(StateText.number(value))" }
            }
            if let kind = SensorKind(rawValue: sensor.kind), kind.socket == .reading, let value = sensor.value {
                line += ", last read " + StateText.describe(ReadingState(kind: kind, present: true, value: value))
            }
            return line
        }

        /// One line for what a sensor ran into: `accelerometer: 2 incidents since start, the last at 12.5 s: …`.
        static func describe(_ incidents: StatusReport.Incidents) -> String {
            let count = incidents.count == 1 ? "1 incident" : "\(incidents.count) incidents"
            return "\(incidents.sensor): \(count) since start, the last at \(StateText.number(incidents.at)) s: \(incidents.last)"
        }

        func run() async throws {
            try await reportingErrors {
                let (text, reply) = try await DaemonClient.withConnection(path: connection.path) { client in
                    try await client.requestRaw(.status)
                }
                if json {
                    printLine(StateText.json(reply: text))
                    return
                }
                guard let report = reply.statusReport else { throw ClientError.protocolViolation(text) }
                printLine("orientd \(report.version), up \(Int(report.uptime)) s, \(report.subscribers) subscriber(s), sampling \(report.sampling)")
                if let natural = report.naturalOrientation {
                    printLine("natural orientation: \(natural)" + (report.naturalOrientationSource.map { " (\($0))" } ?? ""))
                }
                defer {
                    for sensor in report.readingSensors ?? [] { printLine(Self.describe(sensor)) }
                    for incident in report.incidents ?? [] { printLine(Self.describe(incident)) }
                }
                guard let sensor = report.sensor else {
                    printLine("sensor: \(report.sensorState.rawValue)")
                    return
                }
                printLine("sensor: \(report.sensorState.rawValue): \(sensor.id) (\(sensor.name)), \(sensor.mode)"
                    + (sensor.rate.map { " at \($0) Hz" } ?? "") + ", location \(sensor.location)")
                let repaired = sensor.mountMatrixRepaired ? ", mirrored: z row replaced by x × y" : ""
                printLine("mount matrix: \(sensor.mountMatrix) from \(sensor.mountMatrixSource)\(repaired)")
                // An older daemon does not say: print nothing rather than a "none" it did not report.
                guard report.reportsBase else { return }
                guard let base = sensor.base else {
                    printLine("base sensor: none")
                    return
                }
                printLine("base sensor: \(base.id) (\(base.name))" + (base.path.map { " at \($0)" } ?? ""))
                let baseRepaired = base.mountMatrixRepaired ? ", mirrored: z row replaced by x × y" : ""
                printLine("base mount matrix: \(base.mountMatrix) from \(base.mountMatrixSource)\(baseRepaired)")
            }
        }
    }
}
