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

    /// The natural orientation a setting asks for: `auto` detects it, `portrait` and `landscape` are taken as they are.
    public static func resolve(_ setting: NaturalOrientationSetting) -> PanelDetection {
        switch setting {
        case .auto: detect()
        case .portrait: PanelDetection(natural: .portrait, source: .setting("set"))
        case .landscape: PanelDetection(natural: .landscape, source: .setting("set"))
        }
    }

    private static func readSmallFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        return count > 0 ? String(decoding: bytes.prefix(count), as: UTF8.self) : nil
    }
}

/// The `natural-orientation` setting: found from the panel, or given.
public enum NaturalOrientationSetting: String, Sendable, CaseIterable {
    case auto
    case portrait
    case landscape
}
