import CExecutorHook
import NIOCore
import NIOPosix

/// Swift concurrency's global executor, moved onto NIO's singleton event loops.
///
/// libdispatch's worker pool, the default, starts a monitor at its first use that wakes the process every
/// second for good; NIO's loops sleep in epoll until there is work. NIO offers this takeover, but finds the
/// runtime's hook with dlsym, which fails when the runtime is linked statically (`make release`); the C target
/// sets the same hook at link time instead.
enum GlobalExecutor {
    typealias Original = @convention(thin) (UnownedJob) -> Void
    typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

    /// Call first in main, before any task exists. Returns whether the hook was installed.
    @discardableResult
    static func moveOntoNIO() -> Bool {
        if NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor() { return true }
        let hook: Hook = { job, _ in
            let loop = MultiThreadedEventLoopGroup.singleton.any()
            loop.execute { job.runSynchronously(on: loop.executor.asUnownedSerialExecutor()) }
        }
        return withUnsafePointer(to: hook) { pointer in
            pointer.withMemoryRebound(to: UnsafeRawPointer.self, capacity: 1) {
                orientd_install_enqueue_global_hook($0.pointee) != 0
            }
        }
    }
}
