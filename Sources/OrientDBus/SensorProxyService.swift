import Logging
import OrientCore
import OrientPosix
import OrientSampleSource
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Serves iio-sensor-proxy's D-Bus interface, so that GNOME, KDE, Phosh and Qt follow orientd unchanged: the
/// accelerometer's orientation, the ambient light level, the proximity and the compass heading, each claimed per client.
///
/// Its one input is ``update(_:)``: what the daemon's store knows of every sensor (``SensorSnapshot``), handed over
/// at each change from the store's executor. The connection lives on a thread of its own, blocked in `poll` on the
/// bus and a wakeup pipe with sd-bus's own timeout: while nothing happens on the bus and nothing changes, it does
/// not wake. When the bus goes away, or the name cannot be had, it retries with a growing delay; socket clients are
/// never affected. It stops at graceful shutdown and at cancellation alike (a daemon that fails at start cancels
/// its services rather than shutting them down).
public final class SensorProxyService: Service {
    private struct Shared {
        var snapshot = SensorSnapshot()
        var properties = SensorProxyProperties()
        var stopping = false
        /// Whether udev has said, for every kind served, whether one is plugged in.
        var presenceKnown = false
    }

    private let shared = Mutex(Shared())
    private let wakeup: WakeupPipe
    private let claimsChanged: @Sendable (SensorKind, Int) -> Void
    private let sleepChanged: @Sendable (Bool) -> Void
    private let nameRequested: @Sendable () -> Void
    private let busAddress: String?
    private let claimBound: Double
    private let logger: Logger

    /// - Parameters:
    ///   - busAddress: the bus to serve on; `nil` (the daemon's): the system bus, or `DBUS_SYSTEM_BUS_ADDRESS`.
    ///   - claimBound: how long a claim waits for the sensor's first reading, in seconds (``ClaimAnswers``).
    ///   - sleepChanged: logind's PrepareForSleep, followed on the same connection: true as the machine goes to
    ///     sleep, false as it resumes.
    ///   - nameRequested: called on the bus thread each time a connection has asked for the name: the facade has
    ///     started (the daemon's last start-up step, after udev has said which sensors are there).
    ///   - claimsChanged: how many clients claim a kind: 1 when the first claims it, 0 after the last releases it
    ///     or leaves the bus (or the bus goes away). The daemon hands it to the sensors' demand.
    public init(
        busAddress: String? = nil, claimBound: Double = ClaimAnswers.defaultBound, logger: Logger,
        sleepChanged: @escaping @Sendable (Bool) -> Void = { _ in }, nameRequested: @escaping @Sendable () -> Void = {},
        claimsChanged: @escaping @Sendable (SensorKind, Int) -> Void
    ) throws {
        self.wakeup = try WakeupPipe()
        self.claimsChanged = claimsChanged
        self.busAddress = busAddress
        self.claimBound = claimBound
        self.sleepChanged = sleepChanged
        self.nameRequested = nameRequested
        self.logger = logger
    }

    /// What the daemon knows of its sensors changed: the store calls this only on a change. From any thread; each
    /// snapshot is taken in turn, so that none of the orientations it passes through is missed (the last upright one
    /// is what a device lying flat shows). The bus thread then works out which properties changed.
    public func update(_ snapshot: SensorSnapshot) {
        shared.withLock { shared in
            shared.snapshot = snapshot
            shared.properties.show(snapshot)
            shared.presenceKnown = snapshot.presenceKnown
        }
        wakeup.signal()
    }

    public func run() async {
        let worker = BlockingWorker(name: "orientd-dbus")
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await worker.run { self.serveUntilStopped() }
            } onGracefulShutdown: {
                self.stop()
            }
        } onCancel: {
            self.stop()
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
        var claimed: Set<SensorKind> = []
        // The name is asked for once udev has said which sensors are there, as iio-sensor-proxy takes it only after
        // looking: a client that reads the properties at once must not find a present sensor absent.
        while !stopping, !shared.withLock({ $0.presenceKnown }) { waitForWakeup() }
        while !stopping {
            var connection: SensorProxyConnection?
            do {
                let current = try SensorProxyConnection(
                    address: busAddress, claimBound: claimBound, logger: logger, sleepChanged: sleepChanged)
                connection = current
                if try !current.requestName() {
                    logger.warning(
                        "net.hadess.SensorProxy is owned by another process (iio-sensor-proxy?); orientd will take it over when that one leaves, and serves its socket meanwhile")
                }
                lastProblem = nil
                delay = 1
                nameRequested()
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
            for kind in claimed { claimsChanged(kind, 0) }
            claimed = []
            pause(seconds: delay)
            delay = min(delay * 2, 30)
        }
    }

    /// Serves one connection until the daemon stops (returns) or the bus fails (throws).
    private func serve(_ connection: SensorProxyConnection, claimed: inout Set<SensorKind>) throws(BusError) {
        while true {
            let (properties, snapshot) = shared.withLock { ($0.properties, $0.snapshot) }
            try connection.process(properties, snapshot: snapshot)
            for kind in SensorProxyConnection.claimable {
                let nowClaimed = connection.claimCount(of: kind) > 0
                guard nowClaimed != claimed.contains(kind) else { continue }
                if nowClaimed { claimed.insert(kind) } else { claimed.remove(kind) }
                let name = kind.displayName
                logger.info(nowClaimed ? "a D-Bus client claimed the \(name)" : "no D-Bus client claims the \(name)")
                claimsChanged(kind, nowClaimed ? 1 : 0)
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

    /// Waits until another thread signals the wakeup pipe.
    private func waitForWakeup() {
        var entry = pollfd(fd: wakeup.readDescriptor, events: Int16(POLLIN), revents: 0)
        if poll(&entry, 1, -1) > 0 { wakeup.drain() }
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
