#if canImport(Glibc)
import Glibc
#endif

/// A Unix stream socket bound to `path` and listening, for the stand-ins the spawned tests serve (FakeDaemon).
func listeningSocket(_ path: String, backlog: Int32) throws -> Int32 {
    let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard withUnixAddress(path, { bind(listener, $0, $1) }) == 0, listen(listener, backlog) == 0 else {
        Glibc.close(listener)
        throw HarnessError("cannot listen on \(path): \(String(cString: strerror(errno)))")
    }
    return listener
}
