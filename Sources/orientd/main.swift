import Dispatch
import NIOCore
import NIOPosix
import OrientSwitchKeeper
import OrientctlCommands

#if canImport(Glibc)
import Glibc
#endif

// The release installs one binary as /usr/bin/orientd and /usr/bin/orientctl as a link to it (BENCHMARKS.md,
// "The package"): called by that name, it is orientctl, run exactly as orientctl's own executable runs it
// (an async main: Swift concurrency's default executor, the main queue drained by the main thread).
if CommandLine.arguments.first.map(invokedAsOrientctl) == true {
    Task {
        await Orientctl.main()
        exit(0)
    }
    dispatchMain()
}

// Called as orientd-tablet-mode-switch (a link in /usr/libexec), it is the tablet-mode switch's keeper: one thread in
// poll(2), before any of the daemon's signal handling, executor or event loops are set up.
if CommandLine.arguments.first.map({ invokedAs($0, "orientd-tablet-mode-switch") }) == true {
    SwitchKeeper.main()
    exit(0)
}

// The entry point is synchronous on purpose: an `async` main would first hop onto libdispatch's worker pool,
// whose monitor then wakes the process every second, even while the daemon has nothing to do. Instead:
// signals go to one thread in sigwait, Swift concurrency runs on NIO's threads (which sleep in epoll until
// there is work), and the command runs there.
ProcessSignals.takeOver()
GlobalExecutor.moveOntoNIO()
let command = MultiThreadedEventLoopGroup.singleton.any().makeFutureWithTask { await Orientd.main() }
try? command.wait()
exit(0)

/// Whether argv[0] names orientctl: its last path component, as a shell or a link passes it.
func invokedAsOrientctl(_ argument: String) -> Bool {
    invokedAs(argument, "orientctl")
}

/// Whether argv[0]'s last path component is `name`.
func invokedAs(_ argument: String, _ name: String) -> Bool {
    argument.split(separator: "/").last.map(String.init) == name
}
