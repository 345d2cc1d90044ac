import OrientCore

#if canImport(Glibc)
import Glibc
#endif

/// Finds the internal panel through libudev and the kernel command line, for `natural-orientation = auto`.
public enum PanelDiscovery {
    /// What the system's panel says, or portrait (assumed) when udev cannot be asked.
    public static func detect(kernelCommandLinePath: String = "/proc/cmdline") -> PanelDetection {
        let connectors: [PanelConnector]
        do {
            connectors = try UdevSession().drmConnectors()
        } catch {
            return PanelDetection(natural: .portrait, source: .assumed("udev cannot list the display connectors: \(error)"))
        }
        return PanelDetection.detect(connectors: connectors, kernelCommandLine: readSmallFile(kernelCommandLinePath))
    }

    /// The natural orientation to use: the setting when it names one, then a replayed trace's, then the panel's.
    public static func resolve(_ setting: NaturalOrientationSetting, trace: NaturalOrientation? = nil) -> PanelDetection {
        PanelDetection.choose(setting, trace: trace) { detect() }
    }

    static func readSmallFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        return count > 0 ? String(decoding: bytes.prefix(count), as: UTF8.self) : nil
    }
}
