import ArgumentParser

extension Orientctl {
    /// `orientctl get`: the current state under the system mask.
    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the current orientation.")

        @OptionGroup var connection: ConnectionOptions
        @Flag(help: "Print the daemon's state as one line of JSON.") var json = false

        func run() async throws {
            try await reportingErrors {
                let (text, reply) = try await DaemonClient.withConnection(path: connection.path) { client in
                    try await client.requestRaw("\"op\":\"get\"")
                }
                printLine(json ? StateText.json(reply: text) : StateText.human(reply))
            }
        }
    }
}
