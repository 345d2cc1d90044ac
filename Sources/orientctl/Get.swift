import ArgumentParser

extension Orientctl {
    /// `orientctl get`: the current state under the system mask.
    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the current orientation.")

        @OptionGroup var connection: ConnectionOptions
        @Flag(help: "Print the daemon's JSON reply.") var json = false

        func run() async throws {
            try await reportingErrors {
                let reply = try await DaemonClient.withConnection(path: connection.path) { client in
                    try await client.request("\"op\":\"get\"")
                }
                printLine(json ? StateText.json(reply) : StateText.human(reply))
            }
        }
    }
}
