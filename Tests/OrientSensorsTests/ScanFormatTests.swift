import OrientSensors
import Testing

@Suite("Scan element formats")
struct ScanFormatTests {
    @Test("The sysfs text form parses", arguments: [
        ("le:s16/16>>0", ScanFormat(bigEndian: false, signed: true, bits: 16, storageBits: 16, shift: 0)),
        ("le:s12/16>>4", ScanFormat(bigEndian: false, signed: true, bits: 12, storageBits: 16, shift: 4)),
        ("be:u10/16>>6\n", ScanFormat(bigEndian: true, signed: false, bits: 10, storageBits: 16, shift: 6)),
        ("le:S24/32>>0", ScanFormat(bigEndian: false, signed: true, bits: 24, storageBits: 32, shift: 0)),
        ("le:s64/64>>0", ScanFormat(bigEndian: false, signed: true, bits: 64, storageBits: 64, shift: 0)),
        ("le:u8/8", ScanFormat(bigEndian: false, signed: false, bits: 8, storageBits: 8, shift: 0)),
    ])
    func parses(text: String, format: ScanFormat) {
        #expect(ScanFormat(parsing: text) == format)
    }

    @Test("Malformed or impossible formats are refused",
          arguments: ["", "le", "xe:s16/16>>0", "le:x16/16>>0", "le:s16>>0", "le:s16/12>>0", "le:s12/16>>8", "le:s16/16>4",
                      "le:s16/15>>0", "le:s80/80>>0"])
    func refuses(text: String) {
        #expect(ScanFormat(parsing: text) == nil)
    }

    @Test("HID sensor hubs' 32-bit channels: an unsigned light level above 2^31 stays positive, a signed heading may be negative")
    func decodesHIDChannels() throws {
        let light = try #require(ScanFormat(parsing: "le:u32/32>>0"))
        #expect(light.decode([0x00, 0x00, 0x00, 0x80]) == 2_147_483_648)
        #expect(light.decode([0xF4, 0x01, 0x00, 0x00]) == 500)
        let heading = try #require(ScanFormat(parsing: "le:s32/32>>0"))
        #expect(heading.decode([0xFF, 0xFF, 0xFF, 0xFF]) == -1)
        #expect(heading.decode([0x0F, 0x0E, 0x00, 0x00]) == 3599)
    }

    @Test("Decoding: byte order, sign extension, shift, and junk outside the value's bits")
    func decodes() throws {
        let s16 = try #require(ScanFormat(parsing: "le:s16/16>>0"))
        #expect(s16.decode([0x67, 0x00]) == 103)
        #expect(s16.decode([0x69, 0xFC]) == -919)
        let be16 = try #require(ScanFormat(parsing: "be:s16/16>>0"))
        #expect(be16.decode([0xFC, 0x69]) == -919)
        // -256 in 12 bits, shifted left by 4, with junk in the low nibble.
        let s12 = try #require(ScanFormat(parsing: "le:s12/16>>4"))
        let word = UInt16(truncatingIfNeeded: (-256 << 4) | 0xF)
        #expect(s12.decode([UInt8(word & 0xFF), UInt8(word >> 8)]) == -256)
        // 12 bits stored unshifted with junk in the 4 high bits: 0xA800 | 0x100 is +256.
        let high = try #require(ScanFormat(parsing: "le:s12/16>>0"))
        #expect(high.decode([0x00, 0xA1]) == 256)
        #expect(high.decode([0xFF, 0xFF]) == -1)
        let u10 = try #require(ScanFormat(parsing: "be:u10/16>>6"))
        #expect(u10.decode([0xFF, 0xC0]) == 1023)
        let s24 = try #require(ScanFormat(parsing: "le:s24/32>>0"))
        #expect(s24.decode([0xFE, 0xFF, 0xFF, 0x7F]) == -2, "the top byte is junk")
        let s64 = try #require(ScanFormat(parsing: "le:s64/64>>0"))
        #expect(s64.decode([0x00, 0xCA, 0x9A, 0x3B, 0, 0, 0, 0]) == 1_000_000_000)
    }
}

/// Where each channel lies in a scan, as the kernel packs it, and which scan of a buffer's bytes counts.
@Suite("Scan layout")
struct ScanLayoutTests {
    static let s16in32 = ScanFormat(parsing: "le:s16/32>>0")!
    static let stamp = ScanFormat(parsing: "le:s64/64>>0")!
    static let u8 = ScanFormat(parsing: "le:u8/8>>0")!

    @Test("Three 4-byte axes and a timestamp: the timestamp aligned to 16, 24 bytes a scan, whatever order they are given in")
    func accelerometerWithTimestamp() {
        let layout = ScanLayout([
            ("in_timestamp", 3, Self.stamp), ("in_accel_y", 1, Self.s16in32), ("in_accel_x", 0, Self.s16in32),
            ("in_accel_z", 2, Self.s16in32),
        ])
        #expect(layout.elements.map(\.name) == ["in_accel_x", "in_accel_y", "in_accel_z", "in_timestamp"])
        #expect(layout.elements.map(\.offset) == [0, 4, 8, 16])
        #expect(layout.scanSize == 24)
    }

    @Test("A 1-byte channel before a 4-byte one: padded to 4; the scan padded to its largest element")
    func padding() {
        let layout = ScanLayout([("in_a", 0, Self.u8), ("in_b", 1, Self.s16in32), ("in_c", 2, Self.u8)])
        #expect(layout.elements.map(\.offset) == [0, 4, 8])
        #expect(layout.scanSize == 12)
    }

    @Test("The last complete scan counts: junk above the 16 bits is masked, a partial scan at the end is ignored")
    func lastScan() {
        let layout = ScanLayout([("in_accel_x", 0, Self.s16in32), ("in_accel_y", 1, Self.s16in32)])
        func scan(_ x: Int16, _ y: Int16) -> [UInt8] {
            [x, y].flatMap { value -> [UInt8] in
                let word = UInt16(bitPattern: value)
                return [UInt8(word & 0xFF), UInt8(word >> 8), 0x69, 0xFC]
            }
        }
        let bytes = scan(1, 2) + scan(-919, 103) + [0x01, 0x02, 0x03]
        #expect(layout.lastScan(in: bytes, of: ["in_accel_x", "in_accel_y"]) == [-919, 103])
        #expect(layout.lastScan(in: bytes, of: ["in_accel_y"]) == [103])
        #expect(layout.lastScan(in: Array(bytes.prefix(7)), of: ["in_accel_x"]) == nil, "not one complete scan")
        #expect(layout.lastScan(in: bytes, of: ["in_accel_z"]) == nil, "a channel the layout lacks")
    }
}
