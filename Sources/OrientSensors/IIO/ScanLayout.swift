/// Where each enabled channel lies in one scan of an IIO buffer, as the kernel packs it (`iio_compute_scan_bytes`):
/// channels in the order of their `_index`, each at the next offset that is a multiple of its own storage size, and
/// the scan padded to a multiple of the largest. The timestamp's 8 bytes after three 4-byte axes start at 16, and
/// such a scan takes 24 bytes.
public struct ScanLayout: Sendable, Equatable {
    public struct Element: Sendable, Equatable {
        /// The scan element's name without `_en`: `in_accel_x`, `in_timestamp`.
        public var name: String
        public var index: Int
        public var format: ScanFormat
        /// Bytes from the start of the scan.
        public var offset: Int
    }

    /// In scan order.
    public let elements: [Element]
    /// Bytes in one scan.
    public let scanSize: Int

    /// The layout of the enabled `channels`, given in any order.
    public init(_ channels: [(name: String, index: Int, format: ScanFormat)]) {
        var offset = 0
        var largest = 1
        elements = channels.sorted { $0.index < $1.index }.map { channel in
            let size = channel.format.storageBytes
            offset = (offset + size - 1) / size * size
            defer { offset += size }
            largest = max(largest, size)
            return Element(name: channel.name, index: channel.index, format: channel.format, offset: offset)
        }
        scanSize = (offset + largest - 1) / largest * largest
    }

    public func element(_ name: String) -> Element? { elements.first { $0.name == name } }

    /// The raw values of `names` in the last complete scan of `bytes`; nil when the bytes hold no complete scan or
    /// the layout lacks one of the names. A partial scan at the end (a writer caught mid-write) is ignored.
    public func lastScan(in bytes: [UInt8], of names: [String]) -> [Int64]? {
        let found = names.compactMap(element)
        guard found.count == names.count, scanSize > 0, bytes.count >= scanSize else { return nil }
        let start = (bytes.count / scanSize - 1) * scanSize
        return found.map { element in
            let from = start + element.offset
            return element.format.decode(bytes[from..<from + element.format.storageBytes])
        }
    }
}
