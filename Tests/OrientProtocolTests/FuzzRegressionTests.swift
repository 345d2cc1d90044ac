import OrientCore
import OrientProtocol
import Testing

/// Request inputs kept from fuzzing (Fuzz/Corpus/fuzz-request/crlf-mask.jsonl).
@Suite("Fuzz regressions: requests")
struct FuzzRegressionTests {
    /// JSON strings may hold "\r\n"; mask names ignore surrounding white space, and did not for a CRLF because
    /// trimming went by Character.
    @Test("A mask with a trailing CRLF decodes")
    func maskCRLF() throws {
        let request = try RequestDecoder.decode(Array(#"{"op":"set-mask","mask":"portrait|landscape\r\n"}"#.utf8))
        #expect(request.operation == .setMask([.portrait, .landscape]))
    }

    @Test("A lone combining mark is a bad mask that names the mask field")
    func combiningMark() {
        let error = #expect(throws: ProtocolError.self) {
            try RequestDecoder.decode(Array(#"{"op":"subscribe","mask":" \u0301"}"#.utf8))
        }
        #expect(error?.code == .badField)
        #expect(error?.message.hasPrefix("\"mask\"") == true)
    }
}
