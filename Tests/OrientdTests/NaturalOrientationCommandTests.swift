import Foundation
import OrientCore
import OrientTrace
import Testing

/// The four upright poses of the panel and face up, a second each at 50 Hz, in the panel's frame.
private func posesTrace(natural: NaturalOrientation?) throws -> String {
    let g = 9.80665
    let poses = [Vector3(0, -g, 0), Vector3(g, 0, 0), Vector3(0, g, 0), Vector3(-g, 0, 0), Vector3(0, 0, -g)]
    var text = TraceFormat.preamble(TraceMetadata(source: "poses", naturalOrientation: natural))
    for (index, reading) in poses.enumerated() {
        for i in 0..<50 { text += TraceFormat.line(AccelSample(time: Double(index) + Double(i) / 50, acceleration: reading)) }
    }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("poses-\(UUID().uuidString).trace").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
}

@Suite("natural-orientation in classify and plot")
struct NaturalOrientationCommandTests {
    private func devices(_ arguments: [String]) throws -> [String] {
        let output = try OrientdProcess.run(["classify"] + arguments)
        #expect(output.status == 0, "\(output.stderr)")
        return try changes(output.stdout).map(\.device)
    }

    @Test("A trace whose metadata says landscape is named as on a landscape panel; the option overrides it")
    func traceMetadata() throws {
        let landscape = try posesTrace(natural: .landscape)
        defer { try? FileManager.default.removeItem(atPath: landscape) }
        #expect(try devices([landscape]) == ["landscape-left", "portrait", "landscape-right", "portrait-upside-down", "face-up"])
        #expect(try devices([landscape, "--natural-orientation", "portrait"])
            == ["portrait", "landscape-right", "portrait-upside-down", "landscape-left", "face-up"])

        let unmarked = try posesTrace(natural: nil)
        defer { try? FileManager.default.removeItem(atPath: unmarked) }
        #expect(try devices([unmarked]).first == "portrait", "no line: portrait, as before")
        #expect(try devices([unmarked, "--natural-orientation", "landscape"]).first == "landscape-left")

        let bad = try OrientdProcess.run(["classify", unmarked, "--natural-orientation", "square"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--natural-orientation: expected auto, portrait or landscape, got \"square\""), "\(bad.stderr)")
    }

    @Test("Each line carries the rotation that shows its interface upright on the trace's panel")
    func rotation() throws {
        struct Line: Decodable { let rotation: Int? }
        for (natural, option) in [("landscape", [String]()), ("portrait", ["--natural-orientation", "portrait"])] {
            let path = try posesTrace(natural: .landscape)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let output = try OrientdProcess.run(["classify", path] + option)
            let rotations = try output.stdout.split(separator: "\n").map {
                try JSONDecoder().decode(Line.self, from: Data($0.utf8)).rotation
            }
            // The poses are the panel's normal, left-up, bottom-up and right-up whatever the names: rotation follows
            // the pose; face up keeps the last interface and so its rotation.
            #expect(rotations == [0, 90, 180, 270, 270], "\(natural)")
        }
    }

    @Test("The mask landscape on a landscape trace keeps a landscape interface with the left edge up")
    func mask() throws {
        let landscape = try posesTrace(natural: .landscape)
        defer { try? FileManager.default.removeItem(atPath: landscape) }
        let output = try OrientdProcess.run(["classify", landscape, "--mask", "landscape"])
        let lines = try changes(output.stdout)
        #expect(lines.map(\.interface) == ["landscape-right", "landscape-right", "landscape-left", "landscape-left", "landscape-left"])
    }

    @Test("run --replay of a trace whose metadata says landscape names its poses so, and status says where from")
    func replay() throws {
        let landscape = try posesTrace(natural: .landscape)
        defer { try? FileManager.default.removeItem(atPath: landscape) }
        let daemon = try DaemonHarness(["--replay", landscape, "--speed", "max", "--natural-orientation", "auto"])
        try daemon.waitUntilListening()
        // The trace ends face up after the right edge was up: portrait-upside-down on a landscape panel.
        let last = try daemon.poll { $0.device == "face-up" }
        #expect(last?.interface == "portrait-upside-down" && last?.rotation == 270, "\(daemon.log)")
        let status = try daemon.poll(op: "status") { $0.statusReport?.naturalOrientation != nil }
        #expect(status?.statusReport?.naturalOrientation == "landscape")
        #expect(status?.statusReport?.naturalOrientationSource == "from the trace")
        #expect(daemon.log.contains("natural orientation: landscape (from the trace)"))
    }
}
