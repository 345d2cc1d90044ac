import OrientPosix

#if canImport(Glibc)
import Glibc
#endif

/// An IIO device's scan elements (`scan_elements/<name>_en`, `_index`, `_type`), read and enabled through sysfs.
enum ScanElements {
    /// The names of the device's scan elements (`in_accel_x`, `in_timestamp`), sorted; empty when it has none.
    static func names(ofDeviceAt path: String) -> [String] {
        guard let directory = opendir(path + "/scan_elements") else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix("_en") { names.append(String(name.dropLast(3))) }
        }
        return names.sorted()
    }

    /// Writes `1` to each scan element's `_en` that does not read 1 already, as iio-sensor-proxy does when it finds a
    /// buffered sensor: a buffer enabled later then carries every channel. Returns what could not be written, each
    /// naming its file.
    static func enableAll(ofDeviceAt path: String) -> [String] {
        names(ofDeviceAt: path).compactMap { name in
            let file = "\(path)/scan_elements/\(name)_en"
            if case .success(let text) = readTextFile(file), text.trimmingSpaces == "1" { return nil }
            return writeSysfsAttribute("1", to: file).map { "\(file): cannot enable: \($0)" }
        }
    }

    /// The layout of the enabled scan elements; throws naming the first file that cannot be read or makes no sense.
    static func layout(ofDeviceAt path: String) throws(AttributeFault) -> ScanLayout {
        var channels: [(name: String, index: Int, format: ScanFormat)] = []
        for name in names(ofDeviceAt: path) {
            let prefix = "\(path)/scan_elements/\(name)"
            guard try text(prefix + "_en") == "1" else { continue }
            let indexText = try text(prefix + "_index")
            guard let index = Int(indexText), index >= 0 else {
                throw AttributeFault(path: prefix + "_index", problem: .notANumber(text: indexText))
            }
            channels.append((name, index, try format(name, ofDeviceAt: path)))
        }
        return ScanLayout(channels)
    }

    /// How scan element `name` (`in_accel_x`) is laid out, from its `_type`; throws naming the file when it cannot
    /// be read or is not a type.
    static func format(_ name: String, ofDeviceAt path: String) throws(AttributeFault) -> ScanFormat {
        let file = "\(path)/scan_elements/\(name)_type"
        let text = try text(file)
        guard let format = ScanFormat(parsing: text) else {
            throw AttributeFault(path: file, problem: .refused("reads \"\(text)\", not a scan element type such as le:u32/32>>0"))
        }
        return format
    }

    private static func text(_ path: String) throws(AttributeFault) -> String {
        switch readTextFile(path) {
        case .success(let text): return text.trimmingSpaces
        case .failure(let error): throw AttributeFault(path: path, problem: .unreadable(errno: error.rawValue))
        }
    }
}
