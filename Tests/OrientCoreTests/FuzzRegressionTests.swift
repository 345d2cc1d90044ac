import OrientCore
import Testing

/// Inputs that failed a property in Fuzz/fuzz-mount-matrix (or, for masks, the same bug by another door), kept so
/// they stay fixed. Each input is also in Fuzz/Corpus.
@Suite("Fuzz regressions: OrientCore text parsers")
struct FuzzRegressionTests {
    /// fuzz-mount-matrix on the empty input: "" is the identity, but " \t" + "" + " \r\n" was refused, because
    /// trimming went by Character and "\r\n" is one Character, equal to neither "\r" nor "\n".
    @Test("White space with a CRLF around a mount matrix is ignored")
    func mountMatrixCRLF() throws {
        #expect(try MountMatrix(parsing: " \t \r\n") == .identity)
        #expect(try MountMatrix(parsing: "\r\n") == .identity)
        let matrix = MountMatrix(x: Vector3(0, -1, 0), y: Vector3(-1, 0, 0), z: Vector3(0, 0, 1))
        #expect(try MountMatrix(parsing: "0, -1, 0; -1, 0, 0; 0, 0, 1\r\n") == matrix)
        #expect(try MountMatrix(parsing: "0, -1, 0\r\n; -1, 0, 0; 0, 0, 1") == matrix)
    }

    /// The same trimming in mask names: a request's "portrait|landscape\r\n" was an unknown mask.
    @Test("A CRLF after a mask name is ignored")
    func maskCRLF() throws {
        #expect(try InterfaceOrientationMask(parsing: "portrait|landscape\r\n") == [.portrait, .landscape])
        #expect(try InterfaceOrientationMask(parsing: "portrait\r\n|\r\nlandscape-left") == [.portrait, .landscapeLeft])
    }

    /// A combining mark after a space merges with it into one Character that is not a space, so trimming by
    /// Character kept the space. Trimmed by scalars, only the mark is left, and it is named as the bad name.
    @Test("A combining mark after white space does not keep the space")
    func combiningMark() {
        #expect(" \u{301}".trimmingWhitespace().unicodeScalars.elementsEqual("\u{301}".unicodeScalars))
        #expect(" \u{301}x\r\n".trimmingWhitespace().unicodeScalars.elementsEqual("\u{301}x".unicodeScalars))
        let error = #expect(throws: MaskParseError.self) { try InterfaceOrientationMask(parsing: "portrait| \u{301}") }
        #expect(error?.badName.unicodeScalars.elementsEqual("\u{301}".unicodeScalars) == true)
    }
}
