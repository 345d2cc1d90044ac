import NIOCore
import ServiceLifecycle

/// Pings systemd's watchdog (WATCHDOG=1) at half the interval systemd set, but only after the server's event
/// loop has answered: a stuck loop stops the pings and systemd restarts the daemon.
public struct WatchdogService: Service {
    private let interval: Duration
    private let eventLoop: EventLoop
    private let notifier: SystemdNotifier

    /// `nil` unless systemd asked for a watchdog (WATCHDOG_USEC, and WATCHDOG_PID naming this process if set).
    public init?(environment: [String: String], processID: Int32, eventLoop: EventLoop, notifier: SystemdNotifier) {
        guard let text = environment["WATCHDOG_USEC"], let microseconds = Int64(text), microseconds > 0 else { return nil }
        if let pid = environment["WATCHDOG_PID"], Int32(pid) != processID { return nil }
        interval = .microseconds(microseconds / 2)
        self.eventLoop = eventLoop
        self.notifier = notifier
    }

    public func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                while true {
                    try await eventLoop.submit {}.get()
                    notifier.notify("WATCHDOG=1")
                    try await eventLoop.sleep(for: interval)
                }
            }
        } catch is CancellationError {
            return
        }
    }
}
