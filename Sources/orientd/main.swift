import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

// The entry point is synchronous on purpose: an `async` main would first hop onto libdispatch's worker pool,
// whose monitor then wakes the process every second, even while the daemon has nothing to do. Instead:
// signals go to one thread in sigwait, Swift concurrency runs on NIO's threads (which sleep in epoll until
// there is work), and the command runs there.
ProcessSignals.takeOver()
GlobalExecutor.moveOntoNIO()
let command = MultiThreadedEventLoopGroup.singleton.any().makeFutureWithTask { await Orientd.main() }
try? command.wait()
exit(0)
