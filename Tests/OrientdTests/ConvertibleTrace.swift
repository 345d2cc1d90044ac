import Foundation
import OrientCore
import OrientTrace

/// Synthetic two-sensor traces of a convertible whose base lies still on a desk, keys up, while its lid moves.
enum ConvertibleTrace {
    static let g = 9.80665
    /// What the base reads on the desk, in its device frame: gravity into the keys.
    static let baseOnDesk = Vector3(0, 0, -g)

    /// A sample at `time` with the lid at `theta`: the display's reading follows from the base's.
    static func sample(time: Double, theta: Double, base: Vector3 = baseOnDesk) -> AccelSample {
        AccelSample(time: time, acceleration: HingeGeometry.display(fromBase: base, hingeAngle: theta), base: base)
    }

    /// A laptop open at 100° for 2 s, folded back to 360° over 1 s, held there for 2 s, at 50 Hz.
    static var fold: [AccelSample] {
        (0..<250).map { i in
            let t = Double(i) / 50
            let theta = t < 2 ? 100 : min(360, 100 + 260 * (t - 2))
            return sample(time: t, theta: theta)
        }
    }

    /// The trace's text, with the base's columns whenever the samples carry them.
    static func text(_ samples: [AccelSample], metadata: TraceMetadata = TraceMetadata()) -> String {
        let columns: TraceColumns = samples.first?.base == nil ? .display : .displayAndBase
        return TraceFormat.preamble(metadata, columns: columns) + samples.map(TraceFormat.line).joined()
    }

    static func write(_ samples: [AccelSample], metadata: TraceMetadata = TraceMetadata()) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("convertible.trace").path
        try Data(text(samples, metadata: metadata).utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// One line of `orientd classify`'s output, whatever keys it holds.
struct PrintedChange: Decodable {
    let t: Double
    let keys: Set<String>
    let device: String?
    let interface: String?
    let posture: String?
    /// `.some(nil)` for `null`: the value became unknown.
    let tabletMode: Bool??
    let hingeAngle: Int??

    private struct Key: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: Key.self)
        func key(_ name: String) -> Key { Key(stringValue: name) }
        /// Absent, `null`, or a value of exactly this type (a Bool key does not take 1).
        func optional<T: Decodable>(_ name: String, _ type: T.Type) throws -> T?? {
            guard object.contains(key(name)) else { return nil }
            return try object.decodeNil(forKey: key(name)) ? .some(nil) : .some(try object.decode(T.self, forKey: key(name)))
        }
        t = try object.decode(Double.self, forKey: key("t"))
        keys = Set(object.allKeys.map(\.stringValue))
        device = try optional("device", String.self) ?? nil
        interface = try optional("interface", String.self) ?? nil
        posture = try optional("posture", String.self) ?? nil
        tabletMode = try optional("tablet-mode", Bool.self)
        hingeAngle = try optional("hinge-angle", Int.self)
    }

    static func all(_ stdout: String) throws -> [PrintedChange] {
        try stdout.split(separator: "\n").map { try JSONDecoder().decode(PrintedChange.self, from: Data($0.utf8)) }
    }
}
