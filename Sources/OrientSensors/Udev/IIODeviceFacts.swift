import CUdev

/// What udev says of one device, enough for a driver to decide whether it is its kind of sensor: an IIO device,
/// or for the drivers that watch other subsystems, one of theirs (applesmc's platform device).
struct IIODeviceFacts: Sendable, Equatable {
    /// `iio:device1`, `applesmc.768`.
    var id: String
    /// The sysfs path, e.g. `/sys/devices/.../iio:device1`.
    var path: String
    /// The driver's `name` attribute, when it has one.
    var name: String?
    /// iio-sensor-proxy's udev property `IIO_SENSOR_PROXY_TYPE`, a space-separated list (`iio-poll-als`).
    var sensorProxyTypes: Set<String>
    /// The names of its sysfs attributes (`in_illuminance_raw`, `in_illuminance_scale` ...).
    var attributes: Set<String>
    /// The udev property `PROXIMITY_NEAR_LEVEL` a hwdb entry or rule sets on proximity sensors, when it is there.
    var proximityNearLevel: String?
    /// The udev property `NAME` of an input device (`"Power Button"`, quotes included), when it is there.
    var inputName: String?
    /// Its device node (`/dev/input/event4`), when it has one.
    var node: String?
    /// The udev subsystem it belongs to.
    var subsystem = "iio"

    /// The path of attribute `name`.
    func attributePath(_ name: String) -> String { "\(path)/\(name)" }
}

extension UdevSession {
    /// Every IIO device, sorted by id (`iio:device2` before `iio:device10`): the first match of a kind wins, as in
    /// iio-sensor-proxy.
    func iioDeviceFacts() -> [IIODeviceFacts] { deviceFacts(in: ["iio"]) }

    /// The kernel hinge sensors (``HingeSensor/driver(of:)``), sorted by id.
    func hingeSensors() -> [IIODeviceFacts] { iioDeviceFacts().filter { HingeSensor.driver(of: $0) != nil } }

    /// Every device of `subsystems`, those of the first subsystem first (iio-sensor-proxy looks at IIO devices
    /// before platform ones), each subsystem's sorted by id.
    func deviceFacts(in subsystems: [String]) -> [IIODeviceFacts] {
        subsystems.flatMap { subsystem in
            var result: [IIODeviceFacts] = []
            forEachDevice(subsystem: subsystem) { device, path in
                let id = optionalString(udev_device_get_sysname(device)) ?? path
                let types = optionalString(udev_device_get_property_value(device, "IIO_SENSOR_PROXY_TYPE")) ?? ""
                var attributes: Set<String> = []
                var entry = udev_device_get_sysattr_list_entry(device)
                while let current = entry {
                    if let name = optionalString(udev_list_entry_get_name(current)) { attributes.insert(name) }
                    entry = udev_list_entry_get_next(current)
                }
                result.append(IIODeviceFacts(
                    id: id, path: path, name: optionalString(udev_device_get_sysattr_value(device, "name"))?.trimmingSpaces,
                    sensorProxyTypes: Set(types.split(separator: " ").map(String.init)), attributes: attributes,
                    proximityNearLevel: optionalString(udev_device_get_property_value(device, "PROXIMITY_NEAR_LEVEL")),
                    inputName: optionalString(udev_device_get_property_value(device, "NAME")),
                    node: optionalString(udev_device_get_devnode(device)), subsystem: subsystem))
            }
            return result.sorted { $0.id.localizedStandardLess($1.id) }
        }
    }
}
