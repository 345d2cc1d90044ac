import Foundation
import OrientCore
import OrientScenarios
import Testing

@testable import OrientTrace

/// Writes `samples` through a ``TraceWriter`` with `columns` to a new file; returns its text and what was written.
private func written(
    _ samples: [AccelSample], metadata: TraceMetadata = TraceMetadata(), columns: TraceColumns?
) throws -> (text: String, written: [Bool]) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("hinge.trace").path
    let writer = try TraceWriter(path: path, metadata: metadata, columns: columns)
    let flags = try samples.map { try writer.append($0) }
    return (try String(contentsOfFile: path, encoding: .utf8), flags)
}

@Suite("Trace format v3: a kernel hinge sensor's angle")
struct HingeTraceTests {
    let upright = Vector3(0, -9.8, 0)
    let flat = Vector3(0, 0, -9.8)

    @Test("Reads a v3 trace of the display and the hinge: degrees, and unknown where the sensor could not tell")
    func readsDisplayAndHinge() throws {
        let reader = try TraceReader(path: try temporaryTrace(
            "# orientd trace v3\n# hinge-source: iio:device2 cros-ec-lid-angle\n t, x, y, z , HINGE\r\n"
                + "0,0,-9.8,0,104\n0.1, 0,-9.8,0 , unknown \r\n0.2,0,-9.8,0,359.5"))
        #expect(reader.columns == .displayAndHinge)
        #expect(reader.metadata.entries.contains(.init(key: "hinge-source", value: "iio:device2 cros-ec-lid-angle")))
        var samples: [AccelSample] = []
        while let sample = try reader.next() { samples.append(sample) }
        #expect(samples == [
            AccelSample(time: 0, acceleration: upright, hinge: .degrees(104)),
            AccelSample(time: 0.1, acceleration: upright, hinge: .unknown),
            AccelSample(time: 0.2, acceleration: upright, hinge: .degrees(359.5)),
        ])
    }

    @Test("Reads a v3 trace of both accelerometers and the hinge, the hinge last")
    func readsBaseAndHinge() throws {
        let (_, samples) = try readAll(try temporaryTrace(
            "# orientd trace v3\nt,x,y,z,bx,by,bz,hinge\n0,0,-9.8,0,0,0,-9.8,0\n0.1,0,-9.8,0,0,0,-9.8,unknown\n"))
        #expect(samples == [
            AccelSample(time: 0, acceleration: upright, base: flat, hinge: .degrees(0)),
            AccelSample(time: 0.1, acceleration: upright, base: flat, hinge: .unknown),
        ])
    }

    @Test("The header row decides the columns, under any magic line or none; the hinge only ever last", arguments: [
        ("# orientd trace v1\nt,x,y,z,hinge\n0,1,2,3,90\n", TraceColumns.displayAndHinge),
        ("# orientd trace v2\nt,x,y,z,bx,by,bz,hinge\n0,1,2,3,4,5,6,90\n", .displayBaseAndHinge),
        ("# orientd trace v3\nt,x,y,z\n0,1,2,3\n", .display),
        ("# orientd trace v3\nt,x,y,z,bx,by,bz\n0,1,2,3,4,5,6\n", .displayAndBase),
        ("T,X,Y,Z,Hinge\n0,1,2,3,90\n", .displayAndHinge),
    ])
    func headerDecides(text: String, columns: TraceColumns) throws {
        let reader = try TraceReader(path: try temporaryTrace(text))
        #expect(reader.columns == columns)
        let sample = try #require(try reader.next())
        #expect((sample.hinge != nil) == columns.hasHinge)
        #expect((sample.base != nil) == columns.hasBase)
    }

    @Test("Malformed hinge traces are errors naming the file, the line and the field", arguments: [
        ("t,x,y,z,hinge\n0,1,2,3,abc\n", #"test.trace:2: hinge "abc" is neither degrees from 0 to 360 nor unknown"#),
        ("t,x,y,z,hinge\n0,1,2,3,90\n1,1,2,3,\n", #"test.trace:3: hinge "" is neither degrees from 0 to 360 nor unknown"#),
        ("t,x,y,z,hinge\n0,1,2,3,500\n", #"test.trace:2: hinge "500" is neither degrees from 0 to 360 nor unknown"#),
        ("t,x,y,z,hinge\n0,1,2,3,-1\n", #"test.trace:2: hinge "-1" is neither degrees from 0 to 360 nor unknown"#),
        ("t,x,y,z,hinge\n0,1,2,3,nan\n", #"test.trace:2: hinge "nan" is neither degrees from 0 to 360 nor unknown"#),
        ("t,x,y,z,hinge\n0,1,2,3,Unknown\n", #"test.trace:2: hinge "Unknown" is neither degrees from 0 to 360 nor unknown"#),
        ("t,x,y,z,bx,by,bz,hinge\n0,1,2,3,4,5,6,unknownx\n",
         #"test.trace:2: hinge "unknownx" is neither degrees from 0 to 360 nor unknown"#),
        ("t,x,y,z,hinge\n0,1,2,3\n", "test.trace:2: expected 5 columns t,x,y,z,hinge, found 4"),
        ("t,x,y,z,hinge\n0,1,2,3,90,1\n", "test.trace:2: expected 5 columns t,x,y,z,hinge, found 6"),
        ("t,x,y,z,bx,by,bz,hinge\n0,1,2,3,4,5,6\n", "test.trace:2: expected 8 columns t,x,y,z,bx,by,bz,hinge, found 7"),
        ("t,x,y,z,hinge\n0,1,2,x,90\n", #"test.trace:2: z "x" is not a finite number"#),
        ("t,x,y,z,bx,by,bz,hinge\n0,1,2,3,4,5,?,90\n", #"test.trace:2: bz "?" is not a finite number"#),
        ("t,x,y,z,hinge\n1,1,2,3,90\n0.5,1,2,3,90\n", "test.trace:3: time 0.5 does not increase"),
        ("t,x,y,z,hinge,bx,by,bz\n", #"test.trace:1: expected the header row "t,x,y,z" or "t,x,y,z,bx,by,bz", either followed by ",hinge""#),
        ("t,x,y,z,hinge,hinge\n", "test.trace:1: expected the header row"),
        ("# orientd trace v4\nt,x,y,z,hinge\n", #"test.trace:1: unsupported trace version "4"; this orientd reads v1, v2 and v3"#),
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

    @Test("The ends of the range are angles, and the hinge is read at any precision")
    func range() throws {
        let (_, samples) = try readAll(try temporaryTrace("t,x,y,z,hinge\n0,1,2,3,0\n1,1,2,3,360.000\n2,1,2,3,1.8e2\n"))
        #expect(samples.map(\.hinge) == [.degrees(0), .degrees(360), .degrees(180)])
    }

    @Test("The preamble: v3 with the hinge's column, last; without it, v1 and v2 exactly as before")
    func preamble() {
        let metadata = TraceMetadata(source: "hinged")
        #expect(TraceFormat.preamble(metadata, columns: .displayAndHinge) == "# orientd trace v3\n# source: hinged\nt,x,y,z,hinge\n")
        #expect(TraceFormat.preamble(metadata, columns: .displayBaseAndHinge)
            == "# orientd trace v3\n# source: hinged\nt,x,y,z,bx,by,bz,hinge\n")
        #expect(TraceFormat.preamble(metadata) == "# orientd trace v1\n# source: hinged\nt,x,y,z\n")
        #expect(TraceFormat.preamble(metadata, columns: .displayAndBase) == "# orientd trace v2\n# source: hinged\nt,x,y,z,bx,by,bz\n")
    }

    @Test("A sample line ends with the hinge when it carries one: degrees to 0.01°, or unknown")
    func lines() {
        #expect(TraceFormat.line(AccelSample(time: 1.5, acceleration: upright, hinge: .degrees(104.256)))
            == "1.500000,0.00000,-9.80000,0.00000,104.26\n")
        #expect(TraceFormat.line(AccelSample(time: 1.5, acceleration: upright, base: flat, hinge: .unknown))
            == "1.500000,0.00000,-9.80000,0.00000,0.00000,0.00000,-9.80000,unknown\n")
    }

    @Test("The writer with the hinge's column skips samples without an angle, as it does those without a base")
    func writer() throws {
        let samples = [
            AccelSample(time: 0, acceleration: upright, base: flat, hinge: .degrees(90)),
            AccelSample(time: 0.1, acceleration: upright, base: flat),
            AccelSample(time: 0.2, acceleration: upright, hinge: .unknown),
            AccelSample(time: 0.3, acceleration: upright, base: flat, hinge: .unknown),
        ]
        let hinged = try written(samples, columns: .displayAndHinge)
        #expect(hinged.text == """
            # orientd trace v3
            t,x,y,z,hinge
            0.000000,0.00000,-9.80000,0.00000,90.00
            0.200000,0.00000,-9.80000,0.00000,unknown
            0.300000,0.00000,-9.80000,0.00000,unknown

            """, "the base's readings are left out")
        #expect(hinged.written == [true, false, true, true])

        let both = try written(samples, columns: .displayBaseAndHinge)
        #expect(both.written == [true, false, false, true], "every line needs both")
        let (_, readBack) = try readAll(try temporaryTrace(both.text))
        #expect(readBack == [samples[0], samples[3]])

        let withoutHinge = try written(samples, columns: .displayAndBase)
        #expect(withoutHinge.text == """
            # orientd trace v2
            t,x,y,z,bx,by,bz
            0.000000,0.00000,-9.80000,0.00000,0.00000,0.00000,-9.80000
            0.100000,0.00000,-9.80000,0.00000,0.00000,0.00000,-9.80000
            0.300000,0.00000,-9.80000,0.00000,0.00000,0.00000,-9.80000

            """, "a v2 trace leaves the angle out, byte for byte as before v3")
        let displayOnly = try written(samples, columns: nil)
        #expect(displayOnly.text.hasPrefix("# orientd trace v1\nt,x,y,z\n0.000000,0.00000,-9.80000,0.00000\n"))
        #expect(displayOnly.written == [true, true, true, true])
    }

    @Test("Hinge samples round-trip at the format's resolution, with and without the base, across read chunks",
          arguments: [TraceColumns.displayAndHinge, .displayBaseAndHinge])
    func roundTrip(columns: TraceColumns) throws {
        var random = SeededRandom(seed: 29)
        func vector() -> Vector3 {
            Vector3(.random(in: -20...20, using: &random), .random(in: -20...20, using: &random),
                .random(in: -20...20, using: &random))
        }
        let expected = (0..<12_000).map { i in
            let hinge: KernelHingeAngle = i % 7 == 0 ? .unknown : .degrees(.random(in: 0...360, using: &random))
            return AccelSample(
                time: Double(i) * 0.01 + 1e-7, acceleration: vector(), base: columns.hasBase ? vector() : nil, hinge: hinge)
        }
        let text = try written(expected, columns: columns).text
        #expect(text.utf8.count > 4 * TraceReader.chunkSize, "lines must straddle chunk boundaries")
        let reader = try TraceReader(path: try temporaryTrace(text))
        #expect(reader.columns == columns)
        var samples: [AccelSample] = []
        while let sample = try reader.next() { samples.append(sample) }
        #expect(samples.count == expected.count)
        for (got, want) in zip(samples, expected) {
            #expect((got.base == nil) == (want.base == nil))
            switch (got.hinge, want.hinge) {
            case (.unknown?, .unknown?): break
            case (.degrees(let read)?, .degrees(let wrote)?): #expect(abs(read - wrote) <= 0.005 + 1e-9)
            default: Issue.record("hinge \(String(describing: got.hinge)) read for \(String(describing: want.hinge))")
            }
        }
    }

    @Test("A v1 and a v2 trace read as before v3: no hinge on any sample")
    func olderTraces() throws {
        for text in ["# orientd trace v1\nt,x,y,z\n0,1,2,3\n", "# orientd trace v2\nt,x,y,z,bx,by,bz\n0,1,2,3,4,5,6\n"] {
            let reader = try TraceReader(path: try temporaryTrace(text))
            #expect(!reader.columns.hasHinge)
            #expect(try reader.next()?.hinge == nil)
        }
    }
}
