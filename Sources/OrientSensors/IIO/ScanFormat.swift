/// How one channel's value is laid out in a buffered scan, as in the IIO ABI's `scan_elements/*_type`:
/// `[be|le]:[s|u]bits/storagebits[>>shift]`, e.g. `le:s12/16>>4`.
///
/// Decoding reads `storageBits` bits in the given byte order, shifts right by `shift`, keeps the low `bits`
/// (the high bits may hold junk) and sign-extends them for a signed channel.
public struct ScanFormat: Sendable, Equatable {
    public var bigEndian: Bool
    public var signed: Bool
    public var bits: Int
    public var storageBits: Int
    public var shift: Int

    public init(bigEndian: Bool, signed: Bool, bits: Int, storageBits: Int, shift: Int) {
        self.bigEndian = bigEndian
        self.signed = signed
        self.bits = bits
        self.storageBits = storageBits
        self.shift = shift
    }

    /// Parses the sysfs text form; `nil` when it is not one.
    public init?(parsing text: String) {
        let parts = text.trimmingSpaces.split(separator: ":")
        guard parts.count == 2, parts[0] == "le" || parts[0] == "be" else { return nil }
        var rest = Substring(parts[1])
        guard let kind = rest.first, "sSuU".contains(kind) else { return nil }
        rest = rest.dropFirst()
        // "12/16>>4" splits on ">" into ["12/16", "", "4"]; without a shift there is one part.
        let shiftParts = rest.split(separator: ">", omittingEmptySubsequences: false)
        var shift = 0
        if shiftParts.count == 3, shiftParts[1].isEmpty, let value = Int(shiftParts[2]) {
            shift = value
        } else if shiftParts.count != 1 {
            return nil
        }
        let sizes = shiftParts[0].split(separator: "/")
        // A repeat count (`X2`) names several values per channel; accelerometer channels have one.
        guard sizes.count == 2, let bits = Int(sizes[0]), let storage = Int(sizes[1]) else { return nil }
        self.init(bigEndian: parts[0] == "be", signed: "sS".contains(kind), bits: bits, storageBits: storage, shift: shift)
        guard isValid else { return nil }
    }

    /// Within what a 64-bit value can hold, and whole bytes of storage.
    public var isValid: Bool {
        storageBits > 0 && storageBits <= 64 && storageBits % 8 == 0 && bits > 0 && shift >= 0
            && bits + shift <= storageBits
    }

    public var storageBytes: Int { storageBits / 8 }

    /// The value in `bytes` (exactly ``storageBytes`` of them).
    public func decode(_ bytes: some Collection<UInt8>) -> Int64 {
        var raw: UInt64 = 0
        let ordered = bigEndian ? Array(bytes) : Array(bytes.reversed())
        for byte in ordered.prefix(storageBytes) { raw = raw << 8 | UInt64(byte) }
        raw >>= UInt64(shift)
        let mask: UInt64 = bits == 64 ? .max : (1 << UInt64(bits)) - 1
        raw &= mask
        guard signed, bits < 64, raw & (1 << UInt64(bits - 1)) != 0 else { return Int64(bitPattern: raw) }
        return Int64(bitPattern: raw | ~mask)
    }
}

extension ScanFormat: CustomStringConvertible {
    public var description: String {
        "\(bigEndian ? "be" : "le"):\(signed ? "s" : "u")\(bits)/\(storageBits)>>\(shift)"
    }
}
