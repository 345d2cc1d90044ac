import OrientCore

/// Parses a trace one line at a time, with no I/O, so that files, pipes and fuzzers can all feed it.
///
/// Lines before the header row may be blank, comments or `# key: value` metadata; the header row is `t,x,y,z`
/// or `t,x,y,z,bx,by,bz`, either with `,hinge` after it; every later non-blank, non-comment line is a sample with
/// as many columns, whose time is greater than the previous sample's. A sample line allocates nothing unless it is
/// malformed.
public struct TraceLineParser: Sendable {
    public private(set) var metadata = TraceMetadata()
    public private(set) var sawHeader = false
    /// What the header row announced; `.display` until it has been seen.
    public private(set) var columns = TraceColumns.display
    /// The hinge's column, or -1 without one: compared at every field, so kept ready rather than worked out.
    private var hingeColumn = -1
    private var lastTime: Double?

    static let expectedHeader = #""t,x,y,z" or "t,x,y,z,bx,by,bz", either followed by ",hinge""#

    public init() {}

    /// Parses one line (without its newline; a trailing carriage return is ignored).
    /// - Returns: the sample on this line, or `nil` for a blank, comment, metadata or header line.
    public mutating func parse(
        line bytes: UnsafeBufferPointer<UInt8>,
        number: Int
    ) throws(TraceLineError) -> AccelSample? {
        let line = Self.trimmed(bytes)
        if line.isEmpty { return nil }
        if line[0] == UInt8(ascii: "#") {
            if !sawHeader { try readComment(line, number: number) }
            return nil
        }
        guard sawHeader else {
            if let columns = TraceColumns(header: Self.fields(of: line)) {
                self.columns = columns
                hingeColumn = columns.hingeIndex ?? -1
                sawHeader = true
                return nil
            }
            throw TraceLineError(line: number, message: "expected the header row \(Self.expectedHeader) before any data")
        }
        return try readSample(line, number: number)
    }

    /// Checks the end of the input: a trace without a header row is not a trace.
    public func finish(lines: Int) throws(TraceLineError) {
        if !sawHeader {
            throw TraceLineError(line: max(lines, 1), message: "missing the header row \(Self.expectedHeader)")
        }
    }

    private mutating func readSample(
        _ line: UnsafeBufferPointer<UInt8>,
        number: Int
    ) throws(TraceLineError) -> AccelSample {
        // A tuple, not an array: a sample line must not allocate.
        var values: (Double, Double, Double, Double, Double, Double, Double) = (0, 0, 0, 0, 0, 0, 0)
        var hinge: KernelHingeAngle?
        let expected = columns.count
        var column = 0
        var start = 0
        for end in 0...line.count where end == line.count || line[end] == UInt8(ascii: ",") {
            guard column < expected else { throw TraceLineError(line: number, message: columnMessage(line)) }
            let field = Self.trimmed(UnsafeBufferPointer(rebasing: line[start..<end]))
            if column == hingeColumn {
                hinge = try Self.hingeAngle(field, number: number)
            } else {
                guard let value = DecimalParser.parse(field) else {
                    let text = Self.excerpt(field)
                    let name = columns.names[column]
                    throw TraceLineError(line: number, message: "\(name) \"\(text)\" is not a finite number")
                }
                switch column {
                case 0: values.0 = value
                case 1: values.1 = value
                case 2: values.2 = value
                case 3: values.3 = value
                case 4: values.4 = value
                case 5: values.5 = value
                default: values.6 = value
                }
            }
            column += 1
            start = end + 1
        }
        guard column == expected else { throw TraceLineError(line: number, message: columnMessage(line)) }
        if let lastTime, values.0 <= lastTime {
            throw TraceLineError(
                line: number,
                message: "time \(values.0) does not increase (previous sample at \(lastTime))"
            )
        }
        lastTime = values.0
        let base = columns.hasBase ? Vector3(values.4, values.5, values.6) : nil
        return AccelSample(
            time: values.0, acceleration: Vector3(values.1, values.2, values.3), base: base, hinge: hinge)
    }

    /// A hinge field: degrees from 0 to 360, as the live sensor gives them, or the word for an unknown angle.
    private static func hingeAngle(
        _ field: UnsafeBufferPointer<UInt8>, number: Int
    ) throws(TraceLineError) -> KernelHingeAngle {
        if field.elementsEqual(TraceFormat.unknownHingeAngle.utf8) { return .unknown }
        guard let degrees = DecimalParser.parse(field), (0...360).contains(degrees) else {
            let what = "is neither degrees from 0 to 360 nor \(TraceFormat.unknownHingeAngle)"
            throw TraceLineError(line: number, message: "\(TraceColumns.hingeName) \"\(excerpt(field))\" \(what)")
        }
        return .degrees(degrees)
    }

    private mutating func readComment(_ line: UnsafeBufferPointer<UInt8>, number: Int) throws(TraceLineError) {
        let text = String(decoding: line.dropFirst(), as: UTF8.self).trimmingWhitespace()
        if text.hasPrefix("orientd trace v") {
            let version = text.dropFirst("orientd trace v".count)
            // Compared as text, so that "02" or "+2" is not taken for a version nobody writes.
            guard TraceFormat.versions.contains(where: { "\($0)" == version }) else {
                let names = TraceFormat.versions.map { "v\($0)" }
                let known = names.dropLast().joined(separator: ", ") + " and " + names.last!
                throw TraceLineError(line: number, message: "unsupported trace version \"\(version)\"; this orientd reads \(known)")
            }
            return
        }
        guard let colon = text.firstIndex(of: ":") else { return }
        let key = text[..<colon]
        // Only `word-word: value` counts as metadata; any other comment is free text.
        guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else { return }
        let value = String(text[text.index(after: colon)...].trimmingWhitespace())
        metadata.entries.append(.init(key: String(key), value: value))
        switch key {
        case "mount-matrix":
            do {
                metadata.mountMatrix = try MountMatrix(parsing: value)
            } catch {
                throw TraceLineError(line: number, message: error.description)
            }
        case "base-mount-matrix":
            do {
                metadata.baseMountMatrix = try MountMatrix(parsing: value)
            } catch {
                throw TraceLineError(line: number, message: "base-mount-matrix: \(error.description)")
            }
        case "source":
            metadata.source = value
        case "natural-orientation":
            guard let natural = NaturalOrientation(rawValue: value) else {
                throw TraceLineError(line: number, message: "natural-orientation: expected portrait or landscape, got \"\(value)\"")
            }
            metadata.naturalOrientation = natural
        default:
            break  // Unknown keys are kept in `entries` and otherwise ignored.
        }
    }

    /// The bad text quoted in an error: enough to recognise, never a megabyte.
    private static func excerpt(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let limit = 40
        if bytes.count <= limit { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes.prefix(limit), as: UTF8.self) + "… (\(bytes.count) bytes)"
    }

    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    private static func fields(of line: UnsafeBufferPointer<UInt8>) -> [String] {
        line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self).trimmingWhitespace().lowercased()
        }
    }

    private func columnMessage(_ line: UnsafeBufferPointer<UInt8>) -> String {
        let count = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).count
        return "expected \(columns.count) columns \(columns.headerRow), found \(count)"
    }
}
