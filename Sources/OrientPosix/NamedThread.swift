#if canImport(Glibc)
import Glibc
#endif

/// Runs `body` on a new detached thread named `name` (at most 15 bytes, as `top -H` and /proc show it).
/// Blocking C calls (sysfs reads, poll) belong there rather than on Swift's cooperative thread pool.
package func startThread(name: String, _ body: @escaping @Sendable () -> Void) {
    final class Box: Sendable {
        let name: String
        let body: @Sendable () -> Void
        init(_ name: String, _ body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
    let box = Unmanaged.passRetained(Box(name, body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(&thread, nil, { argument in
        let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
        nameCurrentThread(box.name)
        box.body()
        return nil
    }, box)
    if result == 0 {
        pthread_detach(thread)
    } else {
        // No thread: run nothing, but do not leak the box.
        Unmanaged<Box>.fromOpaque(box).release()
    }
}

/// Names the calling thread as `top -H` and /proc/PID/task/TID/comm show it (at most 15 bytes kept).
/// Glibc's module offers neither pthread_setname_np (a GNU extension) nor prctl (variadic), hence the file.
package func nameCurrentThread(_ name: String) {
    let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
}
