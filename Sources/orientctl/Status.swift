import ArgumentParser

extension Orientctl {
    /// `orientctl status`: what the daemon is doing.
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the daemon's sensor, clients and version.")

        @OptionGroup var connection: ConnectionOptions
        @Flag(help: "Print the daemon's reply as one line of JSON.") var json = false

        func run() async throws {
            try await reportingErrors {
                let (text, reply) = try await DaemonClient.withConnection(path: connection.path) { client in
                    try await client.requestRaw("\"op\":\"status\"")
                }
                if json {
                    printLine(StateText.json(reply: text))
                    return
                }
                printLine("orientd \(reply.version ?? "?"), up \(Int(reply.uptime ?? 0)) s, \(reply.subscribers ?? 0) subscriber(s), sampling \(reply.sampling ?? "?")")
                guard let sensor = reply.sensorInfo, let id = sensor.id else {
                    printLine("sensor: \(reply.sensor ?? "none")")
                    return
                }
                printLine("sensor: \(sensor.state ?? "?"): \(id) (\(sensor.name ?? "?")), \(sensor.mode ?? "?")"
                    + (sensor.rate.map { " at \($0) Hz" } ?? "") + ", location \(sensor.location ?? "?")")
                let repaired = sensor.mountMatrixRepaired == true ? ", mirrored: z row replaced by x × y" : ""
                printLine("mount matrix: \(sensor.mountMatrix ?? "?") from \(sensor.mountMatrixSource ?? "?")\(repaired)")
                // An older daemon does not say: print nothing rather than a "none" it did not report.
                guard sensor.reportsBase else { return }
                guard let base = sensor.base else {
                    printLine("base sensor: none")
                    return
                }
                printLine("base sensor: \(base.id ?? "?") (\(base.name ?? "?"))" + (base.path.map { " at \($0)" } ?? ""))
                let baseRepaired = base.mountMatrixRepaired == true ? ", mirrored: z row replaced by x × y" : ""
                printLine("base mount matrix: \(base.mountMatrix ?? "?") from \(base.mountMatrixSource ?? "?")\(baseRepaired)")
            }
        }
    }
}
