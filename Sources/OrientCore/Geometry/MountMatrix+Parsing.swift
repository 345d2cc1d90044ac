/// A mount matrix string that could not be parsed. ``description`` names the problem and the row.
public struct MountMatrixParseError: Error, Equatable, CustomStringConvertible {
    public enum Problem: Equatable, Sendable {
        case rowCount(Int)
        case columnCount(row: Int, count: Int)
        case notANumber(row: Int, text: String)
        case zeroRow(row: Int)
    }

    public let input: String
    public let problem: Problem

    public var description: String {
        let detail: String
        switch problem {
        case .rowCount(let n): detail = "expected 3 rows separated by ';', found \(n)"
        case .columnCount(let row, let n): detail = "row \(row) has \(n) values, expected 3 separated by ','"
        case .notANumber(let row, let text): detail = "row \(row): \"\(text)\" is not a finite number"
        case .zeroRow(let row): detail = "row \(row) is all zeros"
        }
        return "bad mount matrix \"\(input)\": \(detail)"
    }
}

extension MountMatrix {
    /// Parses the IIO/hwdb text form `x1, y1, z1; x2, y2, z2; x3, y3, z3`.
    ///
    /// Locale-independent (the decimal separator is always `.`); accepts `-0`, missing or extra white space, and
    /// treats an empty string as the identity. A row of all zeros is rejected: it would lose an axis.
    public init(parsing text: String) throws(MountMatrixParseError) {
        let trimmed = text.trimmingWhitespace()
        if trimmed.isEmpty {
            self = .identity
            return
        }
        let rowTexts = trimmed.split(separator: ";", omittingEmptySubsequences: false)
        guard rowTexts.count == 3 else { throw MountMatrixParseError(input: text, problem: .rowCount(rowTexts.count)) }
        var rows: [Vector3] = []
        for (index, rowText) in rowTexts.enumerated() {
            let row = index + 1
            let cells = rowText.split(separator: ",", omittingEmptySubsequences: false)
            guard cells.count == 3 else {
                throw MountMatrixParseError(input: text, problem: .columnCount(row: row, count: cells.count))
            }
            var values: [Double] = []
            for cell in cells {
                let cellText = cell.trimmingWhitespace()
                // Double(_:) is locale-independent; it also accepts "nan" and "inf", which are refused here.
                guard let value = Double(cellText), value.isFinite else {
                    throw MountMatrixParseError(input: text, problem: .notANumber(row: row, text: String(cellText)))
                }
                values.append(value)
            }
            let vector = Vector3(values[0], values[1], values[2])
            guard vector != .zero else { throw MountMatrixParseError(input: text, problem: .zeroRow(row: row)) }
            rows.append(vector)
        }
        self.init(x: rows[0], y: rows[1], z: rows[2])
    }

    /// The matrix in the IIO text form, e.g. `0, -1, 0; -1, 0, 0; 0, 0, 1`.
    public var text: String {
        func format(_ v: Double) -> String {
            let rounded = v.rounded()
            if rounded == v, abs(v) < 1e15 { return String(Int(rounded)) }
            return String(v)
        }
        return [rows.x, rows.y, rows.z].map { "\(format($0.x)), \(format($0.y)), \(format($0.z))" }
            .joined(separator: "; ")
    }
}

extension MountMatrix: CustomStringConvertible {
    public var description: String { text }
}
