import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Each thread of this process as the kernel sees it: its name, its state letter and where it sleeps in the kernel
/// (`wchan`), such as "NIO-SGLTN-0-#1 S do_epoll_wait". For a stop that overran its bound: a thread busy or blocked
/// on a lock (`futex_wait_queue`) tells a stalled executor from a wakeup that never came.
package func describeThreads() -> [String] {
    guard let directory = opendir("/proc/self/task") else { return [] }
    defer { closedir(directory) }
    var lines: [String] = []
    while let entry = readdir(directory) {
        let id = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard id.first?.isNumber == true else { continue }
        let folder = "/proc/self/task/\(id)/"
        let name = (try? readTextFile(folder + "comm").get())?.trimmingWhitespace ?? "?"
        let wchan = (try? readTextFile(folder + "wchan").get())?.trimmingWhitespace ?? "?"
        // stat: "tid (comm) S ...": the state follows the last parenthesis, comm may hold spaces.
        let stat = (try? readTextFile(folder + "stat").get()) ?? ""
        let state = stat.split(separator: ")").last?.split(separator: " ").first.map(String.init) ?? "?"
        lines.append("\(name) \(state) \(wchan.isEmpty || wchan == "0" ? "running" : wchan)")
    }
    return lines.sorted()
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
