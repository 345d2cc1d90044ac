import Foundation
import OrientCore
import OrientTestSupport
import Testing

@Suite("natural-orientation in classify, in process")
struct NaturalOrientationTests {
    private func devices(_ arguments: [String]) throws -> [String] {
        let output = InProcessOrientd.run(["classify"] + arguments)
        #expect(output.status == 0, "\(output.stderr)")
        return try changes(output.stdout).map(\.device)
    }

    @Test("A trace whose metadata says landscape is named as on a landscape panel; the option overrides it")
    func traceMetadata() throws {
        let landscape = try TraceFiles.poses(natural: .landscape)
        #expect(try devices([landscape]) == ["landscape-left", "portrait", "landscape-right", "portrait-upside-down", "face-up"])
        #expect(try devices([landscape, "--natural-orientation", "portrait"])
            == ["portrait", "landscape-right", "portrait-upside-down", "landscape-left", "face-up"])

        let unmarked = try TraceFiles.poses(natural: nil)
        #expect(try devices([unmarked]).first == "portrait", "no line: portrait, as before")
        #expect(try devices([unmarked, "--natural-orientation", "landscape"]).first == "landscape-left")

        let bad = InProcessOrientd.run(["classify", unmarked, "--natural-orientation", "square"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--natural-orientation: expected auto, portrait or landscape, got \"square\""), "\(bad.stderr)")
    }

    @Test("Each line carries the rotation that shows its interface upright on the trace's panel")
    func rotation() throws {
        struct Line: Decodable { let rotation: Int? }
        for (natural, option) in [("landscape", [String]()), ("portrait", ["--natural-orientation", "portrait"])] {
            let path = try TraceFiles.poses(natural: .landscape)
            let output = InProcessOrientd.run(["classify", path] + option)
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
        let landscape = try TraceFiles.poses(natural: .landscape)
        let output = InProcessOrientd.run(["classify", landscape, "--mask", "landscape"])
        let lines = try changes(output.stdout)
        #expect(lines.map(\.interface) == ["landscape-right", "landscape-right", "landscape-left", "landscape-left", "landscape-left"])
    }
}
