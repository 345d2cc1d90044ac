/// Why no hwdb match line could be built.
public struct HwdbMatchError: Error, Equatable, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}

/// The match line of a local sensor quirk, as systemd's 60-sensor.hwdb writes them:
/// `sensor:modalias:<parent modalias>:dmi:*svn<vendor>:*pn<product>:*`.
///
/// udev looks the sensor up by `sensor:modalias:` + the modalias of its parent device + `:` + the machine's DMI
/// modalias, and hwdb matches that with shell globs; the line keeps the parent's modalias whole and, of the DMI
/// string, the system vendor and product name, so that it fits this sensor on this model and nothing else.
public struct HwdbMatch: Sendable, Hashable, CustomStringConvertible {
    public let line: String

    public var description: String { line }

    /// `parentModalias`: e.g. `acpi:BOSC0200:` or `platform:HID-SENSOR-200073`; `dmiModalias`: the contents of
    /// /sys/class/dmi/id/modalias, whose `svn` and `pn` fields are used.
    public init(parentModalias: String, dmiModalias: String) throws(HwdbMatchError) {
        let parent = parentModalias.trimmingSpacesAndNewlines
        guard !parent.isEmpty else { throw HwdbMatchError(description: "the sensor's parent device has no modalias") }
        let fields = dmiModalias.trimmingSpacesAndNewlines.split(separator: ":", omittingEmptySubsequences: true)
        guard fields.first == "dmi" else {
            throw HwdbMatchError(description: "the DMI modalias \"\(dmiModalias)\" does not start with dmi:")
        }
        // The kernel strips ':' and spaces from each DMI value, so ':' always separates fields.
        func field(_ key: String) throws(HwdbMatchError) -> String {
            guard let value = fields.first(where: { $0.hasPrefix(key) })?.dropFirst(key.count), !value.isEmpty else {
                throw HwdbMatchError(
                    description:
                        "the DMI modalias has no \(key) field (\(key == "svn" ? "system vendor" : "product name"))")
            }
            return String(value)
        }
        let vendor = try field("svn")
        let product = try field("pn")
        line = "sensor:modalias:\(Self.literal(parent)):dmi:*svn\(Self.literal(vendor)):*pn\(Self.literal(product)):*"
    }

    /// `text` with hwdb's glob characters (`*`, `?`, `[`, `]`) turned into `?`, which matches each of them as one
    /// character: hwdb has no escapes.
    static func literal(_ text: String) -> String {
        String(text.map { "*?[]".contains($0) ? "?" : $0 })
    }
}

extension String {
    var trimmingSpacesAndNewlines: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
