import Foundation
import OrientCore
import Testing

/// Every `ACCEL_MOUNT_MATRIX` in systemd's hwdb/60-sensor.hwdb parses and, after the handedness repair, is a
/// proper rotation with its x and y rows unchanged.
///
/// The file comes from Debian's `udev` package; `make test` extracts it without installing the package.
/// The test looks at `$ORIENTD_HWDB`, the extracted copy under `.build/fixtures`, then the system's copies.
@Suite("systemd hwdb mount matrices")
struct HwdbMountMatrixTests {
    static var hwdbPath: String? {
        let packageRoot = String(#filePath).components(separatedBy: "/Tests/")[0]
        let candidates = [
            ProcessInfo.processInfo.environment["ORIENTD_HWDB"],
            packageRoot + "/.build/fixtures/60-sensor.hwdb",
            "/usr/lib/udev/hwdb.d/60-sensor.hwdb",
            "/lib/udev/hwdb.d/60-sensor.hwdb",
        ]
        return candidates.compactMap { $0 }.first(where: { FileManager.default.fileExists(atPath: $0) })
    }

    @Test("Each entry repairs to a proper rotation",
          .enabled(if: hwdbPath != nil, "60-sensor.hwdb not found: run `make test`, or set ORIENTD_HWDB"))
    func everyEntry() throws {
        let path = try #require(Self.hwdbPath)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var entries = 0
        var mirrored = 0
        var singular = 0
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            guard trimmed.hasPrefix("ACCEL_MOUNT_MATRIX=") else { continue }
            let value = String(trimmed.dropFirst("ACCEL_MOUNT_MATRIX=".count))
            let matrix = try MountMatrix(parsing: value)
            entries += 1
            if matrix.determinant < -0.5 { mirrored += 1 }
            if abs(matrix.determinant) < 1e-9 { singular += 1 }
            let repaired = matrix.repairingHandedness().repaired
            #expect(abs(repaired.determinant - 1) < 1e-9, "line \(number + 1): \(value)")
            #expect(repaired.rows.x == matrix.rows.x && repaired.rows.y == matrix.rows.y, "line \(number + 1)")
            for (a, b) in [(repaired.rows.x, repaired.rows.y), (repaired.rows.y, repaired.rows.z), (repaired.rows.x, repaired.rows.z)] {
                #expect(abs(a.dot(b)) < 1e-9, "line \(number + 1): rows not orthogonal")
            }
        }
        print("hwdb \(path): \(entries) ACCEL_MOUNT_MATRIX entries, \(mirrored) mirrored, \(singular) singular; all repaired to rotations")
        #expect(entries >= 200)
        #expect(mirrored > 100, "systemd 252's hwdb has 154 mirrored entries; finding few means the parse went wrong")
    }
}
