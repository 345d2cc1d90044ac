import OrientCore
import OrientTrace
import Testing

/// Trace bugs of the kind Fuzz/fuzz-trace looks for, kept so they stay fixed.
@Suite("Fuzz regressions: traces")
struct FuzzRegressionTests {
    /// The writer replaced "\r" and "\n" in metadata by Character, and "\r\n" is one Character equal to neither,
    /// so a source name holding a CRLF broke its comment line in two (found while fixing the trimming bug).
    @Test("Metadata with a CRLF is written on one line and reads back")
    func metadataCRLF() throws {
        var metadata = TraceMetadata()
        metadata.source = "accel\r\n3d"
        let preamble = TraceFormat.preamble(metadata)
        #expect(preamble == "# orientd trace v1\n# source: accel  3d\nt,x,y,z\n")

        var parser = TraceLineParser()
        for (index, line) in preamble.utf8.split(separator: UInt8(ascii: "\n")).enumerated() {
            let sample = try Array(line).withUnsafeBufferPointer { try parser.parse(line: $0, number: index + 1) }
            #expect(sample == nil)
        }
        #expect(parser.sawHeader)
        #expect(parser.metadata.source == "accel  3d")
    }
}
