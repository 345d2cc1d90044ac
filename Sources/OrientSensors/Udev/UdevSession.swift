import CUdev
import OrientCore

#if canImport(Glibc)
import Glibc
import OrientPosix
import OrientSampleSource
#endif

/// libudev for the sensors' devices: the accelerometers and other sensors present, and add/remove events. Used on
/// one thread only: the process has one, on ``UdevHub``'s thread.
///
/// Once a session watches a subsystem, its enumerations report only the devices udev has vouched for: those its
/// first enumeration found, and those announced added since, less those announced removed.
/// - A sysfs folder can outlive the `remove` event for a moment (umockdev removes it after sending the event, and
///   the kernel sends it before tearing the device down). Found again in that moment, a removed sensor would be
///   opened, fail, and be found again.
/// - A folder also appears before its `add` event, while its attributes are being written. Found in that moment,
///   a sensor would be opened without its scale file and read 1:1.
/// - Where udevd runs, a first enumeration leaves out the devices it has not processed yet (a machine just booted,
///   a sensor just plugged): before its rules have run, a sensor has no `ACCEL_LOCATION` (the keyboard's would be
///   taken for the display's) and its capture files are root's (it would be polled). Its `add` event admits it.
final class UdevSession {
    /// Whether udevd runs here (its control socket exists); where it does not (a container), nothing is ever
    /// processed, and every device counts as it is.
    private static let udevdRuns = access("/run/udev/control", F_OK) == 0

    private let udev: OpaquePointer
    private var monitor: OpaquePointer?
    /// Which devices the enumerations report, from the events the monitor received.
    private var admission = UdevAdmission()

    init() throws(SensorError) {
        guard let udev = udev_new() else { throw SensorError("udev_new", errno: errno) }
        self.udev = udev
    }

    deinit {
        if let monitor { udev_monitor_unref(monitor) }
        udev_unref(udev)
    }

    /// Every IIO device with x, y and z acceleration channels (raw attributes or scan elements), then every input device udev calls an accelerometer,
    /// with what udev and sysfs say about each: iio-sensor-proxy looks at IIO devices before input ones.
    func accelerometers() -> [AccelerometerCandidate] {
        devices().compactMap(\.accelerometer) + inputAccelerometers()
    }

    /// The subsystems whose devices may be accelerometers.
    static let accelerometerSubsystems = ["iio", "input"]

    /// Every input event device that udev's rules call an accelerometer (`ID_INPUT_ACCELEROMETER`, or
    /// iio-sensor-proxy's `IIO_SENSOR_PROXY_TYPE` `input-accel`) and that has a node, sorted by name.
    func inputAccelerometers() -> [AccelerometerCandidate] {
        var result: [AccelerometerCandidate] = []
        forEachDevice(subsystem: "input", sysname: "event*") { device, path in
            func property(_ name: String) -> String? { optionalString(udev_device_get_property_value(device, name)) }
            let types = property("IIO_SENSOR_PROXY_TYPE")?.split(separator: " ") ?? []
            guard property("ID_INPUT_ACCELEROMETER") == "1" || types.contains("input-accel"),
                let id = optionalString(udev_device_get_sysname(device)),
                let node = optionalString(udev_device_get_devnode(device))
            else { return }
            let parent = udev_device_get_parent_with_subsystem_devtype(device, "input", nil)
            let name = parent.flatMap { optionalString(udev_device_get_sysattr_value($0, "name"))?.trimmingSpaces }
            result.append(AccelerometerCandidate(
                id: id, path: path, name: name, locationProperty: property("ACCEL_LOCATION"),
                mountMatrixProperty: property("ACCEL_MOUNT_MATRIX"), inputNode: node))
        }
        return result.sorted { $0.id.localizedStandardLess($1.id) }
    }

    /// Every IIO device (triggers included), each with its accelerometer description when it is one.
    func devices() -> [IIODeviceSummary] {
        var result: [IIODeviceSummary] = []
        forEachDevice(subsystem: "iio") { device, path in
            let id = optionalString(udev_device_get_sysname(device)) ?? path
            let name = optionalString(udev_device_get_sysattr_value(device, "name"))?.trimmingSpaces
            result.append(IIODeviceSummary(id: id, name: name, accelerometer: Self.candidate(device, path: path)))
        }
        return result.sorted { $0.id.localizedStandardLess($1.id) }
    }

    /// Calls `body` with each device of `subsystem` (whose name matches `sysname`, when given) and its sysfs path.
    func forEachDevice(subsystem: String, sysname: String? = nil, _ body: (OpaquePointer, String) -> Void) {
        guard let enumerate = udev_enumerate_new(udev) else { return }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, subsystem)
        if let sysname { udev_enumerate_add_match_sysname(enumerate, sysname) }
        udev_enumerate_scan_devices(enumerate)
        let enumeration = admission.enumeration(of: subsystem, sysname: sysname)
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            defer { entry = udev_list_entry_get_next(current) }
            guard let path = optionalString(udev_list_entry_get_name(current)), !admission.hides(path) else { continue }
            guard let device = udev_device_new_from_syspath(udev, path) else { continue }
            defer { udev_device_unref(device) }
            guard admission.admits(path, in: enumeration, initialized: {
                !Self.udevdRuns || udev_device_get_is_initialized(device) != 0
            }) else { continue }
            body(device, path)
        }
    }

    private static func candidate(_ device: OpaquePointer, path: String) -> AccelerometerCandidate? {
        func attribute(_ name: String) -> String? {
            optionalString(udev_device_get_sysattr_value(device, name))?.trimmingSpaces
        }
        func property(_ name: String) -> String? { optionalString(udev_device_get_property_value(device, name)) }
        // Read by polling its raw attributes, or only through its buffer (a HID hub's, iio-sensor-proxy's
        // `iio-buffer-accel` devices in its tests): either makes it an accelerometer.
        let axes = ["x", "y", "z"]
        let polled = axes.allSatisfy { attribute("in_accel_\($0)_raw") != nil }
        guard let id = optionalString(udev_device_get_sysname(device)),
            polled || axes.allSatisfy({ attribute("scan_elements/in_accel_\($0)_en") != nil })
        else { return nil }
        var matrices: [String: String] = [:]
        for name in AccelerometerCandidate.mountMatrixAttributeNames {
            if let value = attribute(name) { matrices[name] = value }
        }
        return AccelerometerCandidate(
            id: id, path: path, name: attribute("name"), locationProperty: property("ACCEL_LOCATION"),
            label: attribute("label"), locationAttribute: attribute("location"),
            mountMatrixProperty: property("ACCEL_MOUNT_MATRIX"), mountMatrixAttributes: matrices, bufferOnly: !polled)
    }

    /// Every DRM connector (`card0-eDP-1`, `card0-HDMI-A-1` ...), with its status and modes.
    func drmConnectors() -> [PanelConnector] {
        var result: [PanelConnector] = []
        forEachDevice(subsystem: "drm", sysname: "card*-*") { device, path in
            func attribute(_ name: String) -> String { optionalString(udev_device_get_sysattr_value(device, name)) ?? "" }
            let name = optionalString(udev_device_get_sysname(device)) ?? path
            result.append(PanelConnector(name: name, status: attribute("status"), modes: attribute("modes")))
        }
        return result
    }

    /// The event node of the first input device whose switches include SW_LID, or nil.
    func lidSwitchNode() -> String? {
        switchDevices(code: 0).first?.node
    }

    /// The input devices whose switches include `code` (SW_LID 0, SW_TABLET_MODE 1: bit `code` of the
    /// `capabilities/sw` bitmask kept on the parent `input*` device), with the parent's `name`, by event node; and
    /// whether libinput ignores the device (udev's LIBINPUT_IGNORE_DEVICE on its event node).
    func switchDevices(code: Int) -> [(node: String, name: String, ignoredByLibinput: Bool)] {
        var found: [(node: String, name: String, ignoredByLibinput: Bool)] = []
        forEachDevice(subsystem: "input", sysname: "event*") { device, _ in
            guard let node = optionalString(udev_device_get_devnode(device)),
                let parent = udev_device_get_parent_with_subsystem_devtype(device, "input", nil),
                let switches = optionalString(udev_device_get_sysattr_value(parent, "capabilities/sw")),
                // Hex words, most significant first, each as long as the kernel's long: the switches' codes are
                // below 32, so in the last word.
                let last = switches.split(separator: " ").last.flatMap({ UInt64(String($0).trimmingSpaces, radix: 16) }),
                code < 32, last & (1 << code) != 0
            else { return }
            let ignored = optionalString(udev_device_get_property_value(device, "LIBINPUT_IGNORE_DEVICE")) == "1"
            found.append((node, optionalString(udev_device_get_sysattr_value(parent, "name")) ?? "", ignored))
        }
        return found.sorted { $0.node.localizedStandardLess($1.node) }
    }

    /// Starts listening for add, remove and change events of `subsystems`; returns the descriptor to poll. From now
    /// on the enumerations of those subsystems are gated, each starting afresh with its next enumeration.
    func watch(_ subsystems: [String]) throws(SensorError) -> Int32 {
        if let monitor { return udev_monitor_get_fd(monitor) }
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
            throw SensorError("udev_monitor_new_from_netlink", errno: errno)
        }
        for subsystem in subsystems {
            let result = udev_monitor_filter_add_match_subsystem_devtype(monitor, subsystem, nil)
            guard result >= 0 else {
                udev_monitor_unref(monitor)
                throw SensorError("udev_monitor_filter_add_match_subsystem_devtype", errno: -result)
            }
        }
        let result = udev_monitor_enable_receiving(monitor)
        guard result >= 0 else {
            udev_monitor_unref(monitor)
            throw SensorError("udev_monitor_enable_receiving", errno: -result)
        }
        self.monitor = monitor
        admission.watch(subsystems)
        return udev_monitor_get_fd(monitor)
    }

    /// The next pending event, or `nil` when none is waiting. An `add` admits the device to enumerations; a `remove`
    /// hides it until its next `add`.
    func nextEvent() -> UdevEvent? {
        guard let monitor, let device = udev_monitor_receive_device(monitor) else { return nil }
        defer { udev_device_unref(device) }
        let action = optionalString(udev_device_get_action(device)) ?? "change"
        if let path = optionalString(udev_device_get_syspath(device)) { admission.take(action, path: path) }
        return UdevEvent(
            action: action, id: optionalString(udev_device_get_sysname(device)) ?? "",
            subsystem: optionalString(udev_device_get_subsystem(device)) ?? "")
    }
}
