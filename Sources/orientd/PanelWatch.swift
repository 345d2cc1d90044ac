import OrientSensors
import ServiceLifecycle

/// Follows the DRM connectors while the daemon runs, so that a panel whose driver loads after orientd (or that
/// changes) renames the poses under `natural-orientation = auto`.
struct PanelWatch: Service {
    let running: RunningConfiguration

    func run() async throws {
        // Leaving the iteration ends the stream, which stops its thread.
        for await detection in PanelDiscovery.changes().cancelOnGracefulShutdown() {
            await running.panelDetected(detection)
        }
    }
}
