import OrientPosix

#if canImport(Glibc)
import Glibc
#endif

/// The calling thread's name as `top -H` and /proc show it.
func currentThreadName() -> String {
    let text = (try? readTextFile("/proc/thread-self/comm").get()) ?? "?"
    return text.hasSuffix("\n") ? String(text.dropLast()) : text
}

/// How many of this process's threads bear `name` now.
func threadsNamed(_ name: String) -> Int {
    guard let folder = opendir("/proc/self/task") else { return -1 }
    defer { closedir(folder) }
    var count = 0
    while let entry = readdir(folder) {
        let id = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard id.first?.isNumber == true, case .success(let comm) = readTextFile("/proc/self/task/\(id)/comm") else {
            continue
        }
        if comm == name + "\n" { count += 1 }
    }
    return count
}
