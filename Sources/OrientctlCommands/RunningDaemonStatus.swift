import OrientProtocol

/// The running daemon's `status`, for `orientd doctor`, which reads the sensors itself but reports too what the
/// daemon's own captures ran into since it started.
public enum RunningDaemonStatus {
    /// The socket `orientctl` uses by default: $ORIENTD_SOCKET, else /run/orientd/orientd.sock.
    public static var defaultSocket: String { ConnectionOptions.defaultPath }

    /// The daemon's report, or why none came (`orientd is not running (cannot connect to …)`).
    public static func fetch(path: String) async -> Result<StatusReport, FetchError> {
        do {
            let (text, reply) = try await DaemonClient.withConnection(path: path) { client in
                try await client.requestRaw(.status)
            }
            guard let report = reply.statusReport else { return .failure(FetchError(message: "unexpected reply: \(text)")) }
            return .success(report)
        } catch let error as ClientError {
            return .failure(FetchError(message: error.message))
        } catch {
            return .failure(FetchError(message: "\(error)"))
        }
    }

    public struct FetchError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }
}
