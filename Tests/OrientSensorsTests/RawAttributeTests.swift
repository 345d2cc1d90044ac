import OrientSampleSource
@testable import OrientSensors
import Testing

@Suite("Raw attribute values")
struct RawAttributeTests {
    @Test("Integers and decimals read as written, with sysfs's newline or libiio's NUL", arguments: [
        ("1024\n", 1024.0), ("-919\n", -919), ("0\n", 0), ("-25.6\n", -25.6), ("-25.6\0", -25.6), ("  12 \0\0", 12),
        ("+3.5", 3.5), (".5\n", 0.5), ("010\n", 10), ("\t-0.0383072\r\n", -0.0383072), ("2e3\n", 2000),
    ])
    func parses(text: String, value: Double) {
        #expect(RawAttributeFile.value(parsing: text) == value)
    }

    @Test("Anything else is refused", arguments: ["", "\n", "\0", "abc\n", "12 34\n", "-25,6\n", "nan\n", "inf\n", "-inf\n", "1e999\n", "12\034\n", "1.2.3\n", "-\n", "0x\n"])
    func refuses(text: String) {
        #expect(RawAttributeFile.value(parsing: text) == nil)
    }
}
