import FoundationEssentials

/// The JSON that `doctor --json` and `calibrate --json` print: keys in kebab-case, as the socket protocol writes
/// its own (`hinge-angle`), sorted, indented, and slashes left as they are (a device path reads as a path).
package enum ToolJSON {
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .custom { path in KebabKey(kebab(path.last!.stringValue)) }
        return encoder
    }

    /// `mountMatrixUsed` → `mount-matrix-used`; names already lowercase (a sensor kind used as a key) stay.
    static func kebab(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase {
                if !result.isEmpty { result += "-" }
                result += character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }

    private struct KebabKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
