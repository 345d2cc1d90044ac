import OrientCore
import OrientPosix

/// Finds the internal panel through libudev and the kernel command line, for `natural-orientation = auto`.
public enum PanelDiscovery {
    /// What the system's panel says, or portrait (assumed) when udev cannot be asked.
    public static func detect(udev: UdevHub, kernelCommandLinePath: String = "/proc/cmdline") -> PanelDetection {
        guard let connectors = udev.query({ $0.drmConnectors() }) else {
            return PanelDetection(natural: .portrait, source: .assumed("udev cannot list the display connectors"))
        }
        return PanelDetection.detect(connectors: connectors, kernelCommandLine: kernelCommandLine(at: kernelCommandLinePath))
    }

    /// The natural orientation to use: the setting when it names one, then a replayed trace's, then the panel's.
    public static func resolve(
        _ setting: NaturalOrientationSetting, trace: NaturalOrientation? = nil, udev: UdevHub
    ) -> PanelDetection {
        PanelDetection.choose(setting, trace: trace) { detect(udev: udev) }
    }

    /// The kernel's command line, or nil where it cannot be read.
    static func kernelCommandLine(at path: String) -> String? {
        try? readTextFile(path).get()
    }
}
