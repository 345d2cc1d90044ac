/// Parses a decimal number from bytes, quickly for the common case and exactly in every case.
///
/// Numbers of up to 15 significant digits with a small exponent take the exact fast path (an integer mantissa
/// times or divided by an exact power of ten is correctly rounded); anything else goes through the standard
/// library's parser. Only `.` is a decimal separator: the format does not depend on the locale. Public for the
/// live sensors' raw attributes, which are numbers written the same way.
public enum DecimalParser {
    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// The value of `bytes`, or `nil` if they are not a finite number.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        if let fast = parseFast(bytes) { return fast }
        // The standard library's parser reads a C string, which would end at a NUL and take "12\034" for 12.
        guard !bytes.contains(0), let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }

    private static func parseFast(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let count = bytes.count
        var negative = false
        if index < count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var significantDigits = 0
        var fractionDigits = 0
        var seenPoint = false
        while index < count {
            let byte = bytes[index]
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                digits += 1
                if mantissa != 0 || byte != UInt8(ascii: "0") { significantDigits += 1 }
                if significantDigits > 15 { return nil }
                mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                if seenPoint { fractionDigits += 1 }
            } else if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else {
                break
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        var exponent = -fractionDigits
        if index < count {
            // Only an exponent may follow; anything else is not a number (or is left to the slow path).
            guard bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") else { return nil }
            index += 1
            var exponentNegative = false
            if index < count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var explicit = 0
            var exponentDigits = 0
            while index < count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                explicit = explicit * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                exponentDigits += 1
                if explicit > 400 { return nil }
                index += 1
            }
            guard exponentDigits > 0, index == count else { return nil }
            exponent += exponentNegative ? -explicit : explicit
        }
        guard abs(exponent) <= 22 else { return nil }
        var value = Double(mantissa)
        value = exponent >= 0 ? value * exactPowersOfTen[exponent] : value / exactPowersOfTen[-exponent]
        return negative ? -value : value
    }
}
