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
            try await reportingErrors { try await status(printingTo: &$0) }
        }

        /// The command's work: the daemon's status to `output`, as lines for a person or as its JSON line.
        /// - Throws: ``ClientError`` when the daemon cannot be reached, refuses, or answers nonsense.
        func status(printingTo output: inout some TextOutputStream) async throws {
            let (text, reply) = try await DaemonClient.withConnection(path: connection.path) { client in
                try await client.requestRaw(.status)
            }
            if json {
                output.writeLine(StateText.json(reply: text))
                return
            }
            guard let report = reply.statusReport else { throw ClientError.protocolViolation(text) }
            output.writeLine("orientd \(report.version), up \(Int(report.uptime)) s, \(report.subscribers) subscriber(s), sampling \(report.sampling)")
            if let natural = report.naturalOrientation {
                output.writeLine("natural orientation: \(natural)" + (report.naturalOrientationSource.map { " (\($0))" } ?? ""))
            }
            defer {
                for sensor in report.readingSensors ?? [] { output.writeLine(Self.describe(sensor)) }
                for incident in report.incidents ?? [] { output.writeLine(Self.describe(incident)) }
            }
            guard let sensor = report.sensor else {
                output.writeLine("sensor: \(report.sensorState.rawValue)")
                return
            }
            output.writeLine("sensor: \(report.sensorState.rawValue): \(sensor.id) (\(sensor.name)), \(sensor.mode)"
                + (sensor.rate.map { " at \($0) Hz" } ?? "") + ", location \(sensor.location)")
            let repaired = sensor.mountMatrixRepaired ? ", mirrored: z row replaced by x × y" : ""
            output.writeLine("mount matrix: \(sensor.mountMatrix) from \(sensor.mountMatrixSource)\(repaired)")
            // An older daemon does not say: print nothing rather than a "none" it did not report.
            guard report.reportsBase else { return }
            if let hinge = sensor.hinge {
                output.writeLine("hinge sensor: \(hinge.id) (\(hinge.name))" + (hinge.path.map { " at \($0)" } ?? ""))
            }
            guard let base = sensor.base else {
                output.writeLine("base sensor: none")
                return
            }
            output.writeLine("base sensor: \(base.id) (\(base.name))" + (base.path.map { " at \($0)" } ?? ""))
            let baseRepaired = base.mountMatrixRepaired ? ", mirrored: z row replaced by x × y" : ""
            output.writeLine("base mount matrix: \(base.mountMatrix) from \(base.mountMatrixSource)\(baseRepaired)")
        }
    }
}
