import OrientCore

extension PanelDiscovery {
    /// The internal panel's detection now and again after every DRM connector event (a graphics driver that
    /// loads after orientd, a panel that comes up late), yielded when it changes. No idle wakeups.
    public static func changes(
        udev: UdevHub, kernelCommandLinePath: String = "/proc/cmdline"
    ) -> AsyncStream<PanelDetection> {
        // While the monitor is down the connectors listed stand: nothing to say instead.
        udev.changes(of: ["drm"], unavailable: nil) { session, _ in
            PanelDetection.detect(connectors: session.drmConnectors(), kernelCommandLine: kernelCommandLine(at: kernelCommandLinePath))
        }
    }
}
