import CWideGlobalExecutor
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

/// The test process's global executor: a pool of ``width`` threads instead of one per CPU.
///
/// Swift Testing runs each test as a job on the global executor, which on Linux is as wide as the machine has CPUs
/// (two on CI). Most tests of the daemon are synchronous and wait for the process they spawned in blocking calls
/// (`poll` on its socket, `usleep` between looks at its log): each holds one of those threads for its whole run,
/// and every other test, in-process ones included, waits behind it. On a pool this wide those waits overlap
/// (docs/development/testing.md has the figures). Jobs due later (`Task.sleep`) are timed here too, on one timer
/// thread, and run on the pool when due.
///
/// The daemon's own executor is its business (Sources/orientd/GlobalExecutor.swift): this one is installed in the
/// test process only, by a C constructor (Tests/CWideGlobalExecutor) before Swift Testing starts.
enum WideGlobalExecutor {
    /// How many jobs run at once: three times the tests Swift Testing runs at once (`ORIENTD_TESTS_AT_ONCE`, 16, set
    /// by the same constructor), so that however many of those are blocked, their own tasks and the in-process
    /// tests' find a thread.
    static let width = 48

    static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: width)
        pool.start()
        return pool
    }()

    /// Where jobs due later wait for their time.
    static let timers = MultiThreadedEventLoopGroup(numberOfThreads: 1).next()

    /// Runs jobs as they come, on ``pool``.
    final class Executor: TaskExecutor {
        static let shared = Executor()

        func enqueue(_ job: consuming ExecutorJob) {
            run(UnownedJob(job))
        }

        func run(_ job: UnownedJob) {
            WideGlobalExecutor.pool.submit { _ in job.runSynchronously(on: Executor.shared.asUnownedTaskExecutor()) }
        }

        func run(_ job: UnownedJob, inNanoseconds delay: Int64) {
            WideGlobalExecutor.timers.scheduleTask(in: .nanoseconds(max(0, delay))) { self.run(job) }
        }
    }

    /// Nanoseconds from now to `seconds`, `nanoseconds` on the runtime's clock `clock` (1: continuous, 2: suspending,
    /// as in the runtime's `swift_clock_id`, which reads them as below on Linux); nil for a clock it does not know.
    static func nanoseconds(until seconds: Int64, _ nanoseconds: Int64, clock: Int32) -> Int64? {
        let id: clockid_t
        switch clock {
        case 1: id = CLOCK_BOOTTIME
        case 2: id = CLOCK_MONOTONIC
        default: return nil
        }
        var now = timespec()
        clock_gettime(id, &now)
        return (seconds - Int64(now.tv_sec)) * 1_000_000_000 + (nanoseconds - Int64(now.tv_nsec))
    }
}

@_cdecl("orientd_tests_widen_global_executor")
func widenGlobalExecutor() {
    typealias Now = @convention(thin) (UnownedJob, @convention(thin) (UnownedJob) -> Void) -> Void
    typealias Delay = @convention(thin) (UInt64, UnownedJob, @convention(thin) (UInt64, UnownedJob) -> Void) -> Void
    typealias DeadlineOriginal = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob) -> Void
    typealias Deadline = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob, DeadlineOriginal) -> Void
    let now: Now = { job, _ in WideGlobalExecutor.Executor.shared.run(job) }
    let delay: Delay = { nanoseconds, job, _ in
        WideGlobalExecutor.Executor.shared.run(job, inNanoseconds: Int64(clamping: nanoseconds))
    }
    let deadline: Deadline = { seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job, original in
        guard let delay = WideGlobalExecutor.nanoseconds(until: seconds, nanoseconds, clock: clock) else {
            return original(seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job)
        }
        WideGlobalExecutor.Executor.shared.run(job, inNanoseconds: delay)
    }
    let installed = withUnsafePointer(to: now) { now in
        withUnsafePointer(to: delay) { delay in
            withUnsafePointer(to: deadline) { deadline in
                func raw<T>(_ pointer: UnsafePointer<T>) -> UnsafeRawPointer {
                    pointer.withMemoryRebound(to: UnsafeRawPointer.self, capacity: 1) { $0.pointee }
                }
                return orientd_tests_install_global_hooks(raw(now), raw(delay), raw(deadline))
            }
        }
    }
    precondition(installed == 3, "Swift concurrency's global hooks were already set")
}
