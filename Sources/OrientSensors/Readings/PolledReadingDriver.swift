import Logging
import OrientCore
import OrientPosix
import OrientSampleSource

/// One kind of polled sysfs sensor (the IIO light and proximity sensors, applesmc's light sensor): which udev
/// subsystems hold its devices, how they are matched, and how an opened one is read. ``PolledReadingSource`` does
/// the rest: the thread, the hot-plug, the interval.
///
/// A driver is made when its device is opened and lives until it closes, on the source's thread only.
protocol PolledReadingDriver: SendableMetatype {
    static var kind: SensorKind { get }
    /// The udev subsystems whose devices ``match(_:)`` is shown (and whose events are followed); `iio` unless said.
    static var subsystems: [String] { get }
    /// Why `device` is this kind of sensor (`IIO_SENSOR_PROXY_TYPE iio-poll-als`), or nil when it is not.
    static func match(_ device: IIODeviceFacts) -> String?
    /// Why a device that ``match(_:)`` takes cannot be offered (a proximity sensor with no near level), or nil
    /// when it can. Such a device counts as absent. Drivers whose devices are always usable leave it out.
    static func unusable(_ device: IIODeviceFacts) -> String?
    /// Opens `device`, reading what stays fixed while it is open (a scale, the interval); problems that leave it
    /// usable are logged.
    init(device: IIODeviceFacts, logger: Logger) throws(AttributeFault)
    /// Seconds between two reads.
    var interval: Double { get }
    /// The reading now; nil when the sensor has nothing new (a buffered sensor with no scan since the last read).
    func read() throws(AttributeFault) -> Reading?
    /// The reading now from the sensor itself, for one in doubt (``NextRead/fresh(within:)``): a buffered driver
    /// with no new scan reads its raw attribute rather than its last scan. Drivers that read the sensor at every
    /// ``read()`` leave it out.
    func readFresh() throws(AttributeFault) -> Reading?
    /// Adds what only this kind knows (a proximity sensor's near level) to the description sent when it opens.
    func describe(_ description: inout ReadingSensorDescription)
    /// What the driver ran into and handled since the last call (a silent buffer opened again, or polled), as it
    /// logged it; the capture passes each on as an incident. Drivers with nothing to tell leave it out.
    func takeIncidents() -> [String]
    /// Whether opening the device raises its sampling frequency itself (a buffered one, through libiio), so that it
    /// is left alone when found: the open may be scanning the device's attributes at that very moment.
    static var raisesSamplingFrequencyWhenOpened: Bool { get }
}

extension PolledReadingDriver {
    static var subsystems: [String] { ["iio"] }

    static func unusable(_ device: IIODeviceFacts) -> String? { nil }

    static var raisesSamplingFrequencyWhenOpened: Bool { false }

    func describe(_ description: inout ReadingSensorDescription) {}

    func takeIncidents() -> [String] { [] }

    func readFresh() throws(AttributeFault) -> Reading? { try read() }

    /// Why `device` is offered as this kind of sensor, or nil when it is not one or cannot be offered.
    static func offer(_ device: IIODeviceFacts) -> String? { unusable(device) == nil ? match(device) : nil }
}

/// A sysfs attribute that could not be read, or did not hold a number.
struct AttributeFault: Error, Equatable, CustomStringConvertible {
    enum Problem: Equatable {
        case unreadable(errno: Int32)
        case notANumber(text: String)
        /// Present but unusable, and why (`reads "xyz", not a scan element type such as le:u32/32>>0`).
        case refused(String)
        /// Text that is not of the form the driver reads (`form`, e.g. `(l,r)`).
        case notOfTheForm(text: String, form: String)
    }

    var path: String
    var problem: Problem

    /// The device went away (unplugged, driver unbound) rather than failing for a moment.
    var deviceIsGone: Bool {
        guard case .unreadable(let errno) = problem else { return false }
        return SensorError("read", errno: errno).deviceIsGone
    }

    var description: String {
        switch problem {
        case .unreadable(let errno): "\(path): \(SensorError("read", errno: errno))"
        case .notANumber(let text): "\(path) reads \"\(text)\", not a number"
        case .refused(let reason): "\(path) \(reason)"
        case .notOfTheForm(let text, let form): "\(path) reads \"\(text)\", not of the form \(form)"
        }
    }
}

/// The number in sysfs attribute `path` (`123`, `0.5`, with the trailing newline sysfs gives).
func readNumber(_ path: String) throws(AttributeFault) -> Double {
    let text: String
    switch readTextFile(path) {
    case .success(let read): text = read
    case .failure(let error): throw AttributeFault(path: path, problem: .unreadable(errno: error.rawValue))
    }
    guard let value = RawAttributeFile.value(parsing: text) else {
        throw AttributeFault(path: path, problem: .notANumber(text: text.trimmingSpaces))
    }
    return value
}
