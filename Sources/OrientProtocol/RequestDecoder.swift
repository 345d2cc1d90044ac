import FoundationEssentials

/// Turns a request line into a ``Request``, or a ``ProtocolError`` that names the problem.
public enum RequestDecoder {
    /// The operations, as spelled on the wire.
    public static let operations = ["get", "subscribe", "unsubscribe", "lock", "unlock", "set-mask", "status"]

    public static func decode(_ line: [UInt8]) throws(ProtocolError) -> Request {
        do {
            return try JSONDecoder().decode(Request.self, from: Data(line))
        } catch let error as ProtocolError {
            throw error
        } catch let error as DecodingError {
            throw describe(error)
        } catch {
            throw ProtocolError(.badJSON, "not valid JSON")
        }
    }

    private static func describe(_ error: DecodingError) -> ProtocolError {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            if context.codingPath.isEmpty { return ProtocolError(.badRequest, "a request must be a JSON object") }
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            return ProtocolError(.badField, "\"\(field)\" has the wrong type")
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            return ProtocolError(.badField, "\"\(field)\" has the wrong type")
        default:
            return ProtocolError(.badJSON, "not valid JSON")
        }
    }
}
