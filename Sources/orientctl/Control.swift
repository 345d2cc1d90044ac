import ArgumentParser
import OrientProtocol

extension Orientctl {
    /// `orientctl lock`: hold the interface orientation where it is.
    struct Lock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Lock rotation (root or the control group).")
        @OptionGroup var connection: ConnectionOptions
        @Flag(help: "Print the daemon's JSON reply.") var json = false

        func run() async throws {
            try await control("\"op\":\"lock\"", connection: connection, json: json)
        }
    }

    /// `orientctl unlock`.
    struct Unlock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Unlock rotation (root or the control group).")
        @OptionGroup var connection: ConnectionOptions
        @Flag(help: "Print the daemon's JSON reply.") var json = false

        func run() async throws {
            try await control("\"op\":\"unlock\"", connection: connection, json: json)
        }
    }

    /// `orientctl mask M`.
    struct Mask: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set the system mask (root or the control group); `default` restores the configured one.")
        @OptionGroup var connection: ConnectionOptions
        @Flag(help: "Print the daemon's JSON reply.") var json = false
        @Argument(help: "A mask such as all, landscape or portrait|landscape-left, or default.") var mask: String

        func run() async throws {
            try await control("\"op\":\"set-mask\",\"mask\":" + JSONLineWriter.quoted(mask), connection: connection, json: json)
        }
    }
}

/// Sends a control request and prints the resulting state.
private func control(_ fields: String, connection: ConnectionOptions, json: Bool) async throws {
    try await reportingErrors {
        let (text, reply) = try await DaemonClient.withConnection(path: connection.path) { client in
            try await client.requestRaw(fields)
        }
        printLine(json ? StateText.json(reply: text) : StateText.human(reply))
    }
}
