import Logging
import OrientCore
import OrientInput
import OrientPosix
import OrientSampleSource

#if canImport(Glibc)
import Glibc
#endif

/// A proximity sensor that is a switch of an input device (SW_FRONT_PROXIMITY, as phones' gpio-keys report it),
/// found as iio-sensor-proxy 3.9 finds its `input-proximity`: an input event device whose parent input device's
/// `capabilities/sw` has that switch, with no udev tag needed. Near while the switch is set; read every 0.7 s
/// through its node while it is open (iio-sensor-proxy follows its events instead).
struct InputProximitySwitch: PolledReadingDriver {
    static let kind = SensorKind.proximity
    static let subsystems = ["input"]

    static func match(_ device: IIODeviceFacts) -> String? {
        guard device.id.hasPrefix("event"), device.node != nil,
            case .success(let text) = readTextFile(capabilitiesPath(of: device)),
            SwitchState.capability(SwitchState.frontProximity, in: text) == true
        else { return nil }
        return "input switch SW_FRONT_PROXIMITY"
    }

    /// The parent input device's switch bitmask.
    static func capabilitiesPath(of device: IIODeviceFacts) -> String {
        let parent = device.path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return parent + "/capabilities/sw"
    }

    let interval = IIOPolledProximity.pollInterval
    private let node: String

    init(device: IIODeviceFacts, logger: Logger) throws(AttributeFault) {
        guard let node = device.node else {
            throw AttributeFault(path: device.path, problem: .refused("has no device node"))
        }
        self.node = node
    }

    func read() throws(AttributeFault) -> Reading? {
        do {
            return .proximity(near: try SwitchState.read(SwitchState.frontProximity, node: node))
        } catch {
            throw AttributeFault(path: node, problem: .unreadable(errno: error.errno))
        }
    }
}
