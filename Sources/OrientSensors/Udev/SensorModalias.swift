import CUdev

/// What systemd's 60-sensor.rules builds an accelerometer's hwdb key from:
/// `sensor:modalias:<parent modalias>:<DMI modalias>`.
public enum SensorModalias {
    /// The buses whose device 60-sensor.rules takes the modalias from (its `SUBSYSTEMS=="usb|i2c|platform"`).
    static let parentSubsystems: Set<String> = ["usb", "i2c", "platform"]

    /// The modalias of the nearest ancestor of the IIO device at `sysfsPath` on one of those buses, as the rule's
    /// `$attr{modalias}` reads it (the device's own, if it has one); `nil` when there is none.
    public static func parent(ofSysfsPath sysfsPath: String) -> String? {
        guard let udev = udev_new() else { return nil }
        defer { udev_unref(udev) }
        guard let device = udev_device_new_from_syspath(udev, sysfsPath) else { return nil }
        defer { udev_device_unref(device) }
        if let own = modalias(device) { return own }
        // Parents belong to the child: they are released with it.
        var current = udev_device_get_parent(device)
        while let parent = current {
            if let subsystem = optionalString(udev_device_get_subsystem(parent)), parentSubsystems.contains(subsystem) {
                return modalias(parent)
            }
            current = udev_device_get_parent(parent)
        }
        return nil
    }

    /// The machine's DMI modalias (`/sys/class/dmi/id/modalias`, `dmi:bvn...:svn<vendor>:pn<product>:...`); `nil`
    /// when the kernel has no DMI (CONFIG_DMIID unset, most ARM boards).
    public static func dmi() -> String? {
        guard let udev = udev_new() else { return nil }
        defer { udev_unref(udev) }
        guard let device = udev_device_new_from_subsystem_sysname(udev, "dmi", "id") else { return nil }
        defer { udev_device_unref(device) }
        return modalias(device)
    }

    private static func modalias(_ device: OpaquePointer) -> String? {
        guard let value = optionalString(udev_device_get_sysattr_value(device, "modalias"))?.trimmingSpaces,
            !value.isEmpty
        else { return nil }
        return value
    }
}
