import NIOCore
import OrientServer
import OrientSensors
import ServiceLifecycle

/// Follows what udev shows of the machine for the tablet-mode switch (a base accelerometer beside the display's, the
/// input devices reporting SW_TABLET_MODE) and tells the publisher, which decides and tells the switch's keeper. A
/// switch plugged in later, or removed, changes the decision at once. Event-driven: no idle wakeups.
struct TabletModeSwitchWatch: Service {
    let publisher: NIOLoopBound<Publisher>
    let udev: UdevHub

    func run() async throws {
        // Cancelled at graceful shutdown, which ends the stream and stops its thread (see PanelWatch for why not the
        // sequence's own cancelOnGracefulShutdown).
        await cancelWhenGracefulShutdown {
            for await machine in TabletModeSwitchDiscovery.machineChanges(udev: udev) {
                let publisher = self.publisher
                publisher.eventLoop.execute { publisher.value.machineChanged(machine) }
            }
        }
    }
}
