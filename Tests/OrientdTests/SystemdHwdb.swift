import Foundation
import Testing

/// systemd-hwdb, to compile a hwdb file in a root of its own and look a key up in it as udev does: `make test`
/// extracts it to .build/fixtures (scripts/fetch-from-udev.sh) when udev is not installed.
enum SystemdHwdb {
    static let tool: String? = {
        let packageRoot = String(#filePath).components(separatedBy: "/Tests/")[0]
        let candidates = [
            ProcessInfo.processInfo.environment["ORIENTD_SYSTEMD_HWDB"], packageRoot + "/.build/fixtures/systemd-hwdb",
            "/usr/bin/systemd-hwdb", "/bin/systemd-hwdb",
        ]
        return candidates.compactMap { $0 }.first(where: FileManager.default.isExecutableFile)
    }()

    static let skipReason = "systemd-hwdb not found: run `make test`, or set ORIENTD_SYSTEMD_HWDB"

    /// The properties the hwdb gives `key` with `file` installed as the local sensor file; the compile is strict,
    /// so a syntax error in the file fails it.
    static func query(_ key: String, file: String) throws -> [String: String] {
        let tool = try #require(Self.tool, Comment(rawValue: skipReason))
        let root = try DaemonHarness.makeFolder()
        try FileManager.default.createDirectory(atPath: root + "/etc/udev/hwdb.d", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: file, toPath: root + "/etc/udev/hwdb.d/61-sensor-local.hwdb")
        let update = try OrientdProcess.run(["--root=\(root)", "update", "--strict"], executable: tool)
        guard update.status == 0 else { throw HarnessError("systemd-hwdb update: \(update.stderr)") }
        let query = try OrientdProcess.run(["--root=\(root)", "query", key], executable: tool)
        guard query.status == 0 else { throw HarnessError("systemd-hwdb query: \(query.stderr)") }
        var properties: [String: String] = [:]
        for line in query.stdout.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            properties[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return properties
    }
}
