import Foundation
import OrientCore
import Testing

import OrientScenarios
@testable import OrientTrace

/// Writes `text` to a new temporary file and returns its path.
func temporaryTrace(_ text: String, name: String = "test.trace") throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent(name).path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
}

func readAll(_ path: String) throws -> (TraceMetadata, [AccelSample]) {
    let reader = try TraceReader(path: path)
    var samples: [AccelSample] = []
    while let sample = try reader.next() { samples.append(sample) }
    return (reader.metadata, samples)
}

@Suite("Trace reading")
struct TraceReaderTests {
    @Test("Reads metadata and samples, skipping blank lines and comments, with CRLF and no final newline")
    func valid() throws {
        let path = try temporaryTrace(
            "# orientd trace v1\r\n# mount-matrix: 0, -1, 0; -1, 0, 0; 0, 0, 1\n# source: iio:device0 accel_3d\n"
                + "# recorded-by: test\n\n# a free comment\nt,x,y,z\n0.000000,0.12,-9.79,0.33\n\n# mid comment\n"
                + " 0.01 , -0 ,1e1,-2.5E-1\r\n0.02,1,2,3")
        let (metadata, samples) = try readAll(path)
        #expect(metadata.mountMatrix == MountMatrix(x: Vector3(0, -1, 0), y: Vector3(-1, 0, 0), z: Vector3(0, 0, 1)))
        #expect(metadata.source == "iio:device0 accel_3d")
        #expect(metadata.entries.contains(.init(key: "recorded-by", value: "test")))
        #expect(samples == [
            AccelSample(time: 0, x: 0.12, y: -9.79, z: 0.33),
            AccelSample(time: 0.01, x: 0, y: 10, z: -0.25),
            AccelSample(time: 0.02, x: 1, y: 2, z: 3),
        ])
    }

    @Test("Malformed traces are errors naming the file and line", arguments: [
        ("", "test.trace:1: missing the header row"),
        ("# orientd trace v1\n# only comments\n", "test.trace:2: missing the header row"),
        ("0,1,2,3\n", "test.trace:1: expected the header row"),
        ("t,x,y,z\n0,1,2\n", "test.trace:2: expected 4 columns t,x,y,z, found 3"),
        ("t,x,y,z\n0,1,2,3,4\n", "test.trace:2: expected 4 columns t,x,y,z, found 5"),
        ("t,x,y,z\n0,1,2,3\n1,a,2,3\n", "test.trace:3: x \"a\" is not a finite number"),
        ("t,x,y,z\n0,1,2,nan\n", "test.trace:2: z \"nan\" is not a finite number"),
        ("t,x,y,z\n0,inf,2,3\n", "test.trace:2: x \"inf\" is not a finite number"),
        ("t,x,y,z\n0,1,2,3\n1,1,2,3\n0.5,1,2,3\n", "test.trace:4: time 0.5 does not increase"),
        ("t,x,y,z\n1,1,2,3\n1,1,2,3\n", "test.trace:3: time 1.0 does not increase"),
        ("t,x,y,z\n0,1,,3\n", "test.trace:2: y \"\" is not a finite number"),
        ("# orientd trace v4\nt,x,y,z\n", "test.trace:1: unsupported trace version \"4\"; this orientd reads v1, v2 and v3"),
        ("# orientd trace v02\nt,x,y,z\n", "test.trace:1: unsupported trace version \"02\""),
        ("# mount-matrix: 1, 0, 0; 0, 1, 0\nt,x,y,z\n", "test.trace:1: bad mount matrix"),
        ("t,x,y,z\n0,1,2,3\n0.1,1e999,2,3\n", "test.trace:3: x \"1e999\" is not a finite number"),
        ("# natural-orientation: square\nt,x,y,z\n", "test.trace:1: natural-orientation: expected portrait or landscape, got \"square\""),
    ])
    func malformed(text: String, message: String) throws {
        let path = try temporaryTrace(text)
        #expect {
            _ = try readAll(path)
        } throws: { error in
            let description = "\(error)"
            return description.hasSuffix(message) || description.contains(message)
        }
    }

    @Test("natural-orientation is read from the metadata and written back once")
    func naturalOrientation() throws {
        let metadata = TraceMetadata(source: "tablet", naturalOrientation: .landscape)
        let text = TraceFormat.preamble(metadata) + "0,1,2,3\n"
        #expect(text.components(separatedBy: "# natural-orientation: landscape\n").count == 2)
        let (read, _) = try readAll(try temporaryTrace(text))
        #expect(read.naturalOrientation == .landscape)
        #expect(TraceFormat.preamble(read) == TraceFormat.preamble(metadata), "not written twice from the entries")
        let (none, _) = try readAll(try temporaryTrace("t,x,y,z\n0,1,2,3\n"))
        #expect(none.naturalOrientation == nil)
    }

    @Test("A missing file is a cannot-open error naming the path")
    func missing() {
        #expect(throws: TraceError(file: "/nonexistent/x.trace", line: nil, kind: .cannotOpen(.noSuchFileOrDirectory))) {
            _ = try TraceReader(path: "/nonexistent/x.trace")
        }
    }

    @Test("Samples round-trip through the format at its resolution, across many read chunks")
    func roundTrip() throws {
        var text = TraceFormat.preamble(TraceMetadata(mountMatrix: .identity, source: "round trip"))
        var expected: [AccelSample] = []
        var random = SeededRandom(seed: 79)
        for i in 0..<20_000 {
            let sample = AccelSample(
                time: Double(i) * 0.01 + 1e-7, x: .random(in: -20...20, using: &random),
                y: .random(in: -20...20, using: &random), z: .random(in: -20...20, using: &random))
            expected.append(sample)
            text += TraceFormat.line(sample)
        }
        #expect(text.utf8.count > 4 * TraceReader.chunkSize, "lines must straddle chunk boundaries")
        let (metadata, samples) = try readAll(try temporaryTrace(text))
        #expect(metadata.source == "round trip")
        #expect(samples.count == expected.count)
        for (got, want) in zip(samples, expected) {
            #expect(abs(got.time - want.time) <= 0.5e-6 + 1e-12)
            let error = got.acceleration - want.acceleration
            #expect(max(abs(error.x), abs(error.y), abs(error.z)) <= 0.5e-5 + 1e-12)
        }
    }

    @Test("A line longer than the limit is an error, not unbounded memory")
    func longLine() throws {
        let path = try temporaryTrace("t,x,y,z\n" + String(repeating: "1", count: TraceReader.maximumLineLength + 10) + "\n")
        do {
            _ = try readAll(path)
            Issue.record("a line over the limit was accepted")
        } catch {
            #expect("\(error)".hasSuffix("test.trace:2: line longer than \(TraceReader.maximumLineLength) bytes"))
        }
        let wide = try temporaryTrace("t,x,y,z\n0," + String(repeating: "7", count: 5000) + "x,0,0\n")
        do {
            _ = try readAll(wide)
            Issue.record("a bad number was accepted")
        } catch {
            #expect("\(error)".count < 200, "error messages quote an excerpt, not the whole field")
        }
    }

    @Test("Fixed-precision formatting", arguments: [
        (0.0, 6, "0.000000"), (-0.0000001, 6, "0.000000"), (1.5, 5, "1.50000"), (-9.80665, 5, "-9.80665"),
        (-0.000004, 5, "0.00000"), (123456.0000005, 6, "123456.000001"), (0.1 + 0.2, 5, "0.30000"),
    ])
    func fixed(value: Double, decimals: Int, text: String) {
        #expect(TraceFormat.fixed(value, decimals) == text, "a value that rounds to zero loses its sign")
    }

    @Test("The fast number path agrees exactly with the standard library")
    func decimalParser() {
        var random = SeededRandom(seed: 126)
        var texts = ["0", "-0", "1.", ".5", "-.5", "+3", "9.80665", "1e3", "1E-3", "123456789012345", "1234567890123456789",
                     "0.000000000000000000000000001", "4.9e-324", "1.7976931348623157e308"]
        for _ in 0..<5000 {
            let value = Double.random(in: -1000...1000, using: &random)
            texts.append("\(value)")
            texts.append(String(Int(value * 1_000_000)) + "e-6")
        }
        for text in texts {
            let parsed = Array(text.utf8).withUnsafeBufferPointer { DecimalParser.parse($0) }
            #expect(parsed == Double(text), "\(text)")
        }
        for bad in ["", "-", ".", "e5", "1e", "1e+", "1.2.3", "0x", "--1", "1 2", "nan", "inf", "1,5"] {
            let parsed = Array(bad.utf8).withUnsafeBufferPointer { DecimalParser.parse($0) }
            #expect(parsed == nil, "\(bad)")
        }
    }
}
