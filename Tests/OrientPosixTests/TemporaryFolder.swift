import Foundation

/// A new empty folder under /tmp, for one test.
func temporaryFolder() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("orientposix-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    return path
}

func removeFolder(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}

/// The names in `folder`, sorted.
func entries(_ folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
}

func contents(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
}
