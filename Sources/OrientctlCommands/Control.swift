import ArgumentParser
import OrientProtocol

extension Orientctl {
    /// `orientctl lock`: hold the interface orientation where it is.
    struct Lock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Lock the interface orientation for socket clients (root or the control group).",
            discussion: Orientctl.whoObeys)
        @OptionGroup var connection: ConnectionOptions
        @Flag(help: "Print the daemon's JSON reply.") var json = false

        func run() async throws {
            try await reportingErrors { try await send(printingTo: &$0) }
        }

        /// The command's work: the lock asked for, and the state that results to `output`.
        func send(printingTo output: inout some TextOutputStream) async throws {
            try await control(connection: connection, json: json, printingTo: &output) { .lock }
        }
    }

    /// `orientctl unlock`.
    struct Unlock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Unlock the interface orientation for socket clients (root or the control group).",
            discussion: Orientctl.whoObeys)
        @OptionGroup var connection: ConnectionOptions
        @Flag(help: "Print the daemon's JSON reply.") var json = false

        func run() async throws {
            try await reportingErrors { try await send(printingTo: &$0) }
        }

        /// The command's work: the unlock asked for, and the state that results to `output`.
        func send(printingTo output: inout some TextOutputStream) async throws {
            try await control(connection: connection, json: json, printingTo: &output) { .unlock }
        }
    }

    /// `orientctl mask M`.
    struct Mask: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set the system mask for socket clients (root or the control group); `default` restores the configured one.",
            discussion: Orientctl.whoObeys)
        @OptionGroup var connection: ConnectionOptions
        @Flag(help: "Print the daemon's JSON reply.") var json = false
        @Argument(help: "A mask such as all, landscape or portrait|landscape-left, or default.") var mask: String

        func run() async throws {
            try await reportingErrors { try await send(printingTo: &$0) }
        }

        /// The command's work: the mask asked for, and the state that results to `output`.
        func send(printingTo output: inout some TextOutputStream) async throws {
            // Checked once connected, so that a bad mask gets the answer the daemon gives one (65, bad-field)
            // and a daemon that is not running is still said to be so.
            try await control(connection: connection, json: json, printingTo: &output) { [mask] () throws(ProtocolError) in
                try .setMask(parsing: mask)
            }
        }
    }
}

/// Sends a control request and writes the resulting state to `output`.
/// - Throws: ``ClientError`` when the daemon cannot be reached or refuses (a bad mask is refused as it would).
private func control(
    connection: ConnectionOptions, json: Bool, printingTo output: inout some TextOutputStream,
    _ operation: @escaping () throws(ProtocolError) -> Request.Operation
) async throws {
    let (text, reply) = try await DaemonClient.withConnection(path: connection.path) { client in
        let request: Request.Operation
        do throws(ProtocolError) {
            request = try operation()
        } catch {
            throw ClientError.refused(error)
        }
        return try await client.requestRaw(request)
    }
    output.writeLine(json ? StateText.json(reply: text) : StateText.human(reply))
}
