import Foundation
import OrientCore
import OrientScenarios
import Testing

@testable import OrientTrace

/// A file name in a new temporary folder, not yet created.
private func temporaryPath(_ name: String = "written.trace") throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appendingPathComponent(name).path
}

private let rotated = MountMatrix(x: Vector3(0, -1, 0), y: Vector3(-1, 0, 0), z: Vector3(0, 0, 1))
private let mirrored = MountMatrix(x: Vector3(1, 0, 0), y: Vector3(0, -1, 0), z: Vector3(0, 0, 1))

@Suite("Trace format v2: the display and the keyboard base")
struct TwoSensorTraceTests {
    @Test("Reads a v2 trace: both mount matrices, and every sample carries the base reading")
    func readsV2() throws {
        let path = try temporaryTrace(
            "# orientd trace v2\n# mount-matrix: 0, -1, 0; -1, 0, 0; 0, 0, 1\n# base-mount-matrix: 1, 0, 0; 0, -1, 0; 0, 0, 1\n"
                + "# source: two sensors\n T, x, Y,z , BX,by,bz\r\n0.000000,0.12,-9.79,0.33,0.01,0.02,-9.81\n"
                + "# a comment\n\n 0.01 , -0 ,1e1,-2.5E-1, 1,2 ,3\r\n0.02,1,2,3,-4,-5,-6")
        let reader = try TraceReader(path: path)
        #expect(reader.columns == .displayAndBase)
        #expect(reader.metadata.mountMatrix == rotated)
        #expect(reader.metadata.baseMountMatrix == mirrored)
        #expect(reader.metadata.source == "two sensors")
        var samples: [AccelSample] = []
        while let sample = try reader.next() { samples.append(sample) }
        #expect(samples == [
            AccelSample(time: 0, acceleration: Vector3(0.12, -9.79, 0.33), base: Vector3(0.01, 0.02, -9.81)),
            AccelSample(time: 0.01, acceleration: Vector3(0, 10, -0.25), base: Vector3(1, 2, 3)),
            AccelSample(time: 0.02, acceleration: Vector3(1, 2, 3), base: Vector3(-4, -5, -6)),
        ])
    }

    @Test("A v1 trace reads as before: display columns, no base reading, no base matrix")
    func readsV1() throws {
        let reader = try TraceReader(path: try temporaryTrace("# orientd trace v1\nt,x,y,z\n0,1,2,3\n"))
        #expect(reader.columns == .display)
        #expect(reader.metadata.baseMountMatrix == nil)
        #expect(try reader.next() == AccelSample(time: 0, x: 1, y: 2, z: 3))
        #expect(try reader.next() == nil)
    }

    @Test("The header row decides the columns, under either magic line or none", arguments: [
        ("# orientd trace v1\nt,x,y,z,bx,by,bz\n0,1,2,3,4,5,6\n", true),
        ("# orientd trace v2\nt,x,y,z\n0,1,2,3\n", false),
        ("t,x,y,z,bx,by,bz\n0,1,2,3,4,5,6\n", true),
        ("# base-mount-matrix: 1, 0, 0; 0, 1, 0; 0, 0, 1\nt,x,y,z\n0,1,2,3\n", false),
    ])
    func headerDecides(text: String, base: Bool) throws {
        let (_, samples) = try readAll(try temporaryTrace(text))
        #expect(samples.count == 1)
        #expect(samples.first?.base == (base ? Vector3(4, 5, 6) : nil))
    }

    @Test("Malformed two-sensor traces are errors naming the file, the line and the field", arguments: [
        ("t,x,y,z,bx,by,bz\n0,1,2,3,abc,5,6\n", "test.trace:2: bx \"abc\" is not a finite number"),
        ("t,x,y,z,bx,by,bz\n0,1,2,3,4,5,6\n1,1,2,3,4,,6\n", "test.trace:3: by \"\" is not a finite number"),
        ("t,x,y,z,bx,by,bz\n0,1,2,3,4,5,nan\n", "test.trace:2: bz \"nan\" is not a finite number"),
        ("t,x,y,z,bx,by,bz\n0,1,2,3,4,5,1e999\n", "test.trace:2: bz \"1e999\" is not a finite number"),
        ("t,x,y,z,bx,by,bz\n0,1,2,3,4\n", "test.trace:2: expected 7 columns t,x,y,z,bx,by,bz, found 5"),
        ("t,x,y,z,bx,by,bz\n0,1,2,3\n", "test.trace:2: expected 7 columns t,x,y,z,bx,by,bz, found 4"),
        ("t,x,y,z,bx,by,bz\n0,1,2,3,4,5,6,7\n", "test.trace:2: expected 7 columns t,x,y,z,bx,by,bz, found 8"),
        ("t,x,y,z\n0,1,2,3,4,5,6\n", "test.trace:2: expected 4 columns t,x,y,z, found 7"),
        ("t,x,y,z,bx,by,bz\n1,1,2,3,4,5,6\n0.5,1,2,3,4,5,6\n", "test.trace:3: time 0.5 does not increase"),
        ("t,x,y,z,bx,by\n0,1,2,3,4,5\n", "test.trace:1: expected the header row \"t,x,y,z\" or \"t,x,y,z,bx,by,bz\""),
        ("# orientd trace v2\n# only comments\n", "test.trace:2: missing the header row \"t,x,y,z\" or \"t,x,y,z,bx,by,bz\""),
        ("# orientd trace v2\n# base-mount-matrix: 1, 0, 0; 0, 1\nt,x,y,z,bx,by,bz\n",
         "test.trace:2: base-mount-matrix: bad mount matrix"),
        ("# base-mount-matrix: 1, 0, 0; 0, 0, 0; 0, 0, 1\nt,x,y,z\n", "test.trace:1: base-mount-matrix: bad mount matrix"),
    ])
    func malformed(text: String, message: String) throws {
        let path = try temporaryTrace(text)
        do {
            _ = try readAll(path)
            Issue.record("accepted: \(text)")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
    }

    @Test("The preamble: v1 exactly as before without a base, v2 with a base mount matrix or when asked")
    func preamble() {
        var metadata = TraceMetadata(mountMatrix: rotated, source: "tablet")
        metadata.entries.append(.init(key: "location", value: "display"))
        #expect(TraceFormat.preamble(metadata) == """
            # orientd trace v1
            # mount-matrix: 0, -1, 0; -1, 0, 0; 0, 0, 1
            # source: tablet
            # location: display
            t,x,y,z

            """)
        #expect(TraceFormat.preamble(metadata, columns: .displayAndBase).hasPrefix("# orientd trace v2\n"))
        #expect(TraceFormat.preamble(metadata, columns: .displayAndBase).hasSuffix("\nt,x,y,z,bx,by,bz\n"))

        metadata.baseMountMatrix = mirrored
        #expect(TraceFormat.preamble(metadata) == """
            # orientd trace v2
            # mount-matrix: 0, -1, 0; -1, 0, 0; 0, 0, 1
            # base-mount-matrix: 1, 0, 0; 0, -1, 0; 0, 0, 1
            # source: tablet
            # location: display
            t,x,y,z,bx,by,bz

            """)
    }

    @Test("A v2 preamble reads back to the same metadata, and writes identically again")
    func preambleRoundTrip() throws {
        var metadata = TraceMetadata(mountMatrix: rotated, baseMountMatrix: mirrored, source: "round trip")
        metadata.entries.append(.init(key: "base-location", value: "base"))
        let written = TraceFormat.preamble(metadata)
        let reader = try TraceReader(path: try temporaryTrace(written))
        #expect(reader.columns == .displayAndBase)
        #expect(reader.metadata.mountMatrix == rotated && reader.metadata.baseMountMatrix == mirrored)
        #expect(reader.metadata.entries.map(\.key) == ["mount-matrix", "base-mount-matrix", "source", "base-location"])
        #expect(TraceFormat.preamble(reader.metadata) == written, "base-mount-matrix is written once, from its field")
    }

    @Test("A sample line has seven columns when it carries the base reading, four when not")
    func lines() {
        let display = Vector3(0.12, -9.79, 0.333333)
        #expect(TraceFormat.line(AccelSample(time: 1.5, acceleration: display)) == "1.500000,0.12000,-9.79000,0.33333\n")
        #expect(TraceFormat.line(AccelSample(time: 1.5, acceleration: display, base: Vector3(0, -0.000001, 9.80665)))
            == "1.500000,0.12000,-9.79000,0.33333,0.00000,0.00000,9.80665\n")
    }

    @Test("Two-sensor samples round-trip at the format's resolution, across many read chunks")
    func roundTrip() throws {
        var text = TraceFormat.preamble(TraceMetadata(baseMountMatrix: .identity))
        var expected: [AccelSample] = []
        var random = SeededRandom(seed: 13)
        func vector() -> Vector3 {
            Vector3(.random(in: -20...20, using: &random), .random(in: -20...20, using: &random),
                .random(in: -20...20, using: &random))
        }
        for i in 0..<12_000 {
            let sample = AccelSample(time: Double(i) * 0.01 + 1e-7, acceleration: vector(), base: vector())
            expected.append(sample)
            text += TraceFormat.line(sample)
        }
        #expect(text.utf8.count > 4 * TraceReader.chunkSize, "lines must straddle chunk boundaries")
        let (_, samples) = try readAll(try temporaryTrace(text))
        #expect(samples.count == expected.count)
        for (got, want) in zip(samples, expected) {
            let base = try #require(got.base)
            let error = [got.acceleration - want.acceleration, base - want.base!]
                .map { max(abs($0.x), abs($0.y), abs($0.z)) }.max()!
            #expect(error <= 0.5e-5 + 1e-12)
        }
    }

    @Test("The writer: v1 byte for byte as before without a base; v2 with a base matrix or when asked")
    func writer() throws {
        let samples = [
            AccelSample(time: 0, acceleration: Vector3(0, -9.8, 0), base: Vector3(0, 0, -9.8)),
            AccelSample(time: 0.02, acceleration: Vector3(0.1, -9.7, 0.2)),
            AccelSample(time: 0.04, acceleration: Vector3(0.2, -9.6, 0.3), base: Vector3(0.1, 0.2, -9.7)),
        ]
        func write(_ metadata: TraceMetadata, columns: TraceColumns? = nil) throws -> (String, [Bool]) {
            let path = try temporaryPath()
            let writer = try TraceWriter(path: path, metadata: metadata, columns: columns)
            let written = try samples.map { try writer.append($0) }
            return (try String(contentsOfFile: path, encoding: .utf8), written)
        }

        let (v1, allWritten) = try write(TraceMetadata(mountMatrix: .identity, source: "display"))
        #expect(v1 == """
            # orientd trace v1
            # mount-matrix: 1, 0, 0; 0, 1, 0; 0, 0, 1
            # source: display
            t,x,y,z
            0.000000,0.00000,-9.80000,0.00000
            0.020000,0.10000,-9.70000,0.20000
            0.040000,0.20000,-9.60000,0.30000

            """, "a display-only trace keeps the display readings and drops the base's")
        #expect(allWritten == [true, true, true])

        let (v2, written) = try write(TraceMetadata(baseMountMatrix: mirrored))
        #expect(v2 == """
            # orientd trace v2
            # base-mount-matrix: 1, 0, 0; 0, -1, 0; 0, 0, 1
            t,x,y,z,bx,by,bz
            0.000000,0.00000,-9.80000,0.00000,0.00000,0.00000,-9.80000
            0.040000,0.20000,-9.60000,0.30000,0.10000,0.20000,-9.70000

            """)
        #expect(written == [true, false, true], "a line of a v2 trace needs the base reading")

        let (asked, _) = try write(TraceMetadata(), columns: .displayAndBase)
        #expect(asked.hasPrefix("# orientd trace v2\nt,x,y,z,bx,by,bz\n0.000000,"))
        let (_, readBack) = try readAll(try temporaryTrace(asked))
        #expect(readBack.map(\.base) == [Vector3(0, 0, -9.8), Vector3(0.1, 0.2, -9.7)])
    }
}
