import FoundationEssentials
import OrientCore

/// Turns a request line into a ``Request``, or a ``ProtocolError`` that names the problem.
///
/// Unknown fields are ignored, so newer clients can talk to older daemons; known fields must have the right
/// type and value.
public enum RequestDecoder {
    /// The operations, as spelled on the wire.
    public static let operations = ["get", "subscribe", "unsubscribe", "lock", "unlock", "set-mask", "status"]

    private struct Wire: Decodable {
        var op: String?
        var id: RequestID?
        var mask: String?
        var preferred: String?
        var changes: String?
        var autorotate: Bool?
    }

    public static func decode(_ line: [UInt8]) throws(ProtocolError) -> Request {
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: Data(line))
        } catch let error as DecodingError {
            throw describe(error, line: line)
        } catch {
            throw ProtocolError(.badJSON, "not valid JSON")
        }
        guard let op = wire.op else { throw ProtocolError(.badRequest, "missing \"op\"", id: wire.id) }
        do throws(ProtocolError) {
            return Request(id: wire.id, try operation(op, wire))
        } catch {
            var error = error
            error.id = wire.id
            throw error
        }
    }

    private static func operation(_ op: String, _ wire: Wire) throws(ProtocolError) -> Request.Operation {
        switch op {
        case "get":
            // Without client settings, the system's view; with any, the view of a client that has them.
            let asClient = wire.mask != nil || wire.preferred != nil || wire.autorotate != nil
            return .get(asClient ? try subscription(wire) : nil)
        case "status": return .status
        case "lock": return .lock
        case "unlock": return .unlock
        case "unsubscribe": return .unsubscribe
        case "set-mask":
            guard let text = wire.mask else { throw ProtocolError(.badField, "set-mask needs \"mask\"") }
            return .setMask(text == "default" ? nil : try mask(text))
        case "subscribe":
            return .subscribe(try subscription(wire))
        default:
            throw ProtocolError(
                .unknownOperation,
                "unknown op \"\(op)\"; expected one of: \(operations.joined(separator: ", "))"
            )
        }
    }

    private static func subscription(_ wire: Wire) throws(ProtocolError) -> SubscriptionSettings {
        var settings = SubscriptionSettings()
        if let text = wire.mask { settings.mask = try mask(text) }
        if let text = wire.preferred {
            guard let preferred = InterfaceOrientation(rawValue: text), preferred != .unknown else {
                let names = InterfaceOrientation.drawable.map(\.rawValue).joined(separator: ", ")
                throw ProtocolError(.badField, "\"preferred\": unknown orientation \"\(text)\"; expected one of: \(names)")
            }
            settings.preferred = preferred
        }
        if let text = wire.changes {
            guard let changes = ChangeFilter(rawValue: text) else {
                throw ProtocolError(.badField, "\"changes\": expected \"all\" or \"interface\", got \"\(text)\"")
            }
            settings.changes = changes
        }
        if let autorotate = wire.autorotate { settings.autorotate = autorotate }
        return settings
    }

    private static func mask(_ text: String) throws(ProtocolError) -> InterfaceOrientationMask {
        do {
            return try InterfaceOrientationMask(parsing: text)
        } catch {
            throw ProtocolError(.badField, "\"mask\": \(error.description)")
        }
    }

    private static func describe(_ error: DecodingError, line: [UInt8]) -> ProtocolError {
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
