import Logging
import OrientConfiguration
import OrientCore
import OrientProtocol
import OrientPosix
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Serves iio-sensor-proxy's D-Bus interface, so that GNOME, KDE, Phosh and Qt follow orientd unchanged.
///
/// The connection lives on a thread of its own, blocked in `poll` on the bus and a wakeup pipe with sd-bus's
/// own timeout: while nothing happens on the bus and nothing changes, it does not wake. The daemon reports
/// changes with ``update(_:)`` from any thread. When the bus goes away, or the name cannot be had, it retries
/// with a growing delay; socket clients are never affected. It stops at graceful shutdown and at cancellation
/// alike (a daemon that fails at start cancels its services rather than shutting them down).
///
/// As a configured part it takes the natural orientation, which decides what each device orientation is called.
public final class SensorProxyService: Service, ConfiguredPart {
    private struct Shared {
        var properties = SensorProxyProperties()
        var stopping = false
    }

    private let shared = Mutex(Shared())
    private let wakeup: WakeupPipe
    private let presence: AsyncStream<Bool>
    private let claimsChanged: @Sendable (Int) -> Void
    private let logger: Logger

    /// - Parameters:
    ///   - presence: whether the accelerometer is plugged in, as it changes.
    ///   - claimsChanged: how many clients claim the accelerometer: 1 when the first claims it, 0 after the last
    ///     releases it or leaves the bus (or the bus goes away). The daemon hands it to the sensor's demand.
    public init(presence: AsyncStream<Bool>, logger: Logger, claimsChanged: @escaping @Sendable (Int) -> Void) throws {
        self.wakeup = try WakeupPipe()
        self.presence = presence
        self.claimsChanged = claimsChanged
        self.logger = logger
    }

    public static let reads = SettingsRead(whileRunning: ["natural-orientation"])

    public static func slice(of settings: RunSettings) -> NaturalOrientation { settings.panel.natural }

    public func apply(_ natural: NaturalOrientation) async -> Refusal? {
        setNatural(natural)
        return nil
    }

    /// The daemon's state changed (the system state, whose device orientation is what the desktops want).
    public func update(_ state: OrientationState) {
        let changed = shared.withLock { shared in
            let before = shared.properties
            shared.properties.update(device: state.device, readable: state.sensor == .available)
            return shared.properties != before
        }
        if changed { wakeup.signal() }
    }

    /// The panel's natural orientation changed (or is known at start): the same device orientation may now be
    /// another edge of the panel up.
    public func setNatural(_ natural: NaturalOrientation) {
        let changed = shared.withLock { shared in
            let before = shared.properties
            shared.properties.setNatural(natural)
            return shared.properties != before
        }
        if changed { wakeup.signal() }
    }

    public func run() async {
        let worker = BlockingWorker(name: "orientd-dbus")
        // Child tasks, not Task {}: they inherit the daemon's executor preference (EventLoopTaskExecutor). The
        // presence loop ends when the group is cancelled, once the bus thread has returned.
        await withDiscardingTaskGroup { group in
            group.addTask { [presence] in
                for await present in presence {
                    self.shared.withLock { $0.properties.setPresent(present) }
                    self.wakeup.signal()
                }
            }
            await withTaskCancellationHandler {
                await withGracefulShutdownHandler {
                    await worker.run { self.serveUntilStopped() }
                } onGracefulShutdown: {
                    self.stop()
                }
            } onCancel: {
                self.stop()
            }
            group.cancelAll()
        }
    }

    /// Tells the bus thread to return, from any thread.
    private func stop() {
        shared.withLock { $0.stopping = true }
        wakeup.signal()
    }

    // MARK: The bus thread

    private var stopping: Bool { shared.withLock { $0.stopping } }

    /// Connects, serves, and reconnects after failures: 1 s, then doubling up to 30 s.
    private func serveUntilStopped() {
        nameCurrentThread("orientd-dbus")
        var delay = 1.0
        var lastProblem: String?
        var claimed = false
        while !stopping {
            var connection: SensorProxyConnection?
            do {
                let current = try SensorProxyConnection(logger: logger)
                connection = current
                if try !current.requestName() {
                    logger.warning(
                        "net.hadess.SensorProxy is owned by another process (iio-sensor-proxy?); orientd will take it over when that one leaves, and serves its socket meanwhile")
                }
                lastProblem = nil
                delay = 1
                try serve(current, claimed: &claimed)
                current.close()
                connection = nil
            } catch {
                connection?.close()
                let problem = "\(error)"
                if problem != lastProblem {
                    logger.warning("D-Bus facade: \(problem); retrying in \(Int(delay)) s and then less often")
                    lastProblem = problem
                }
            }
            if claimed {
                claimed = false
                claimsChanged(0)
            }
            pause(seconds: delay)
            delay = min(delay * 2, 30)
        }
    }

    /// Serves one connection until the daemon stops (returns) or the bus fails (throws).
    private func serve(_ connection: SensorProxyConnection, claimed: inout Bool) throws(BusError) {
        while true {
            let properties = shared.withLock { $0.properties }
            try connection.process(properties)
            let nowClaimed = connection.claimCount > 0
            if nowClaimed != claimed {
                claimed = nowClaimed
                logger.info(claimed ? "a D-Bus client claimed the accelerometer" : "no D-Bus client claims the accelerometer")
                claimsChanged(claimed ? 1 : 0)
            }
            let (descriptor, events, timeout) = try connection.waitSpecification()
            var entries = [
                pollfd(fd: descriptor, events: events, revents: 0),
                pollfd(fd: wakeup.readDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            if poll(&entries, 2, timeout) < 0, errno != EINTR { throw BusError("poll", result: -errno) }
            if entries[1].revents != 0 {
                wakeup.drain()
                if stopping { return }
            }
        }
    }

    /// Waits `seconds`, or less when the daemon stops. Property updates meanwhile wait for the next connection.
    private func pause(seconds: Double) {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while !stopping {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return }
            var entry = pollfd(fd: wakeup.readDescriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
            if poll(&entry, 1, Int32(milliseconds)) > 0 { wakeup.drain() }
        }
    }
}
