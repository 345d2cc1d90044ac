#if canImport(Glibc)
import Glibc
#endif
import OrientPosix
import OrientSampleSource
/// One IIO device as udev lists it.
public struct IIODeviceSummary: Sendable, Equatable {
    public var id: String
    public var name: String?
    /// Its description when it has x, y and z acceleration channels.
    public var accelerometer: AccelerometerCandidate?
}

/// What is present, for `orientd doctor`: the same discovery the live source uses.
public enum IIODiscovery {
    /// Every IIO device, by id.
    public static func devices(udev: UdevHub) throws(SensorError) -> [IIODeviceSummary] {
        guard let devices = udev.query({ $0.devices() }) else { throw SensorError("udev_new", errno: ENOMEM) }
        return devices
    }
}
