import OrientSensors
import ServiceLifecycle

/// Follows the DRM connectors while the daemon runs, so that a panel whose driver loads after orientd (or that
/// changes) renames the poses under `natural-orientation = auto`. It lists the connectors once more as it starts, after
/// the start-up's own listing: the listing made once its udev monitor is in place is what leaves no gap for a panel to
/// come up unseen, and the same panel found again changes nothing.
struct PanelWatch: Service {
    let running: RunningConfiguration
    let udev: UdevHub

    func run() async throws {
        // Cancelled at graceful shutdown, which ends the stream and stops its thread. Not the sequence's
        // `cancelOnGracefulShutdown()`: that merges two sequences with swift-async-algorithms' merge, which can
        // deadlock against the task's own cancellation (seen: a daemon that failed to bind at start never exited,
        // two of NIO's threads waiting on each other's locks in MergeStorage.next and removeStatusRecord).
        await cancelWhenGracefulShutdown {
            for await detection in PanelDiscovery.changes(udev: udev) { running.panelDetected(detection) }
        }
    }
}
