import Foundation
import OrientCore
import OrientScenarios
import OrientTrace

/// Trace files for the tests of orientd's commands, spawned and in process: the shipped ones, and samples written
/// to a fresh temporary folder.
public enum TraceFiles {
    /// Traces/demo.trace, a recording of a tablet turned by hand.
    public static let demo = shipped("demo.trace")
    /// Traces/fold.trace, a convertible folded to a tablet, both sensors, its panel landscape.
    public static let fold = shipped("fold.trace")

    private static func shipped(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Traces/\(name)").standardized.path
    }

    /// A new empty folder under the temporary directory.
    public static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Writes `text` as `name` in a new folder, and returns its path.
    public static func write(text: String, name: String = "written.trace") throws -> String {
        let path = try folder().appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Writes `samples` as a trace, with the base's columns and the hinge's whenever the first sample carries them.
    public static func write(
        _ samples: [AccelSample], metadata: TraceMetadata = TraceMetadata(), name: String = "written.trace"
    ) throws -> String {
        let columns = TraceColumns(base: samples.first?.base != nil, hinge: samples.first?.hinge != nil)
        return try write(text: TraceFormat.preamble(metadata, columns: columns) + samples.map(TraceFormat.line).joined(), name: name)
    }

    /// Writes a scenario as a trace file, with its mount matrix in the metadata.
    public static func write(_ scenario: Scenario) throws -> String {
        try write(
            scenario.samples, metadata: TraceMetadata(mountMatrix: scenario.mountMatrix, source: scenario.name),
            name: "scenario.trace")
    }

    /// The four upright poses of the panel and face up, a second each at 50 Hz, in the panel's frame, with the
    /// panel's natural orientation in the metadata when given.
    public static func poses(natural: NaturalOrientation?) throws -> String {
        let g = 9.80665
        let poses = [Vector3(0, -g, 0), Vector3(g, 0, 0), Vector3(0, g, 0), Vector3(-g, 0, 0), Vector3(0, 0, -g)]
        let samples = poses.enumerated().flatMap { index, reading in
            (0..<50).map { i in AccelSample(time: Double(index) + Double(i) / 50, acceleration: reading) }
        }
        return try write(samples, metadata: TraceMetadata(source: "poses", naturalOrientation: natural), name: "poses.trace")
    }
}
