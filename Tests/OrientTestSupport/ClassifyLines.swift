import Foundation

/// A line of `orientd classify` for a trace of the display alone.
public struct ChangeLine: Decodable, Equatable, Sendable {
    public let t: Double
    public let device: String
    public let interface: String
}

public func changes(_ stdout: String) throws -> [ChangeLine] {
    try stdout.split(separator: "\n").map { try JSONDecoder().decode(ChangeLine.self, from: Data($0.utf8)) }
}
