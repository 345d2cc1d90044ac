@testable import OrientSensors
import Testing

/// What a udev session's enumerations report around udev's events: a sysfs folder can linger after its `remove`
/// event, and appear before its `add` event while its attributes are being written.
@Suite("Devices a udev session admits")
struct UdevAdmissionTests {
    static let light = "/sys/devices/iio:device1"
    static let accelerometer = "/sys/devices/iio:device0"

    /// Whether one enumeration of the iio subsystem reports the device at `path`, udevd having processed it.
    private func reports(_ admission: inout UdevAdmission, _ path: String) -> Bool {
        let enumeration = admission.enumeration(of: "iio", sysname: nil)
        return !admission.hides(path) && admission.admits(path, in: enumeration) { true }
    }

    @Test("A subsystem not watched: every device is reported, each time, processed by udevd or not")
    func notWatched() {
        var admission = UdevAdmission()
        admission.watch(["platform"])
        for _ in 0..<2 {
            let enumeration = admission.enumeration(of: "iio", sysname: nil)
            #expect(admission.admits(Self.light, in: enumeration) { false })
        }
    }

    @Test("The first enumeration admits what udevd has processed; a folder that appears later is left alone until its add event")
    func folderBeforeItsAddEvent() {
        var admission = UdevAdmission()
        admission.watch(["iio"])
        let first = admission.enumeration(of: "iio", sysname: nil)
        #expect(admission.admits(Self.accelerometer, in: first) { true })
        #expect(!admission.admits("/sys/devices/iio:device2", in: first) { false }, "not processed by udevd yet")
        // Another device's event makes a watcher look again: the light sensor's folder is there, half written.
        admission.take("change", path: Self.accelerometer)
        #expect(!reports(&admission, Self.light), "found before its add event")
        #expect(reports(&admission, Self.accelerometer))
        admission.take("add", path: Self.light)
        #expect(reports(&admission, Self.light))
        #expect(!reports(&admission, "/sys/devices/iio:device2"), "its add event has not come either")
    }

    @Test("A device announced as removed is left out while its folder lingers, and reported again once added back")
    func folderAfterItsRemoveEvent() {
        var admission = UdevAdmission()
        admission.watch(["iio"])
        #expect(reports(&admission, Self.light))
        admission.take("remove", path: Self.light)
        #expect(admission.hides(Self.light))
        #expect(!reports(&admission, Self.light))
        admission.take("add", path: Self.light)
        #expect(reports(&admission, Self.light))
    }

    @Test("Each subsystem and name pattern has its own first enumeration; a new watch starts them afresh")
    func firstEnumerations() {
        var admission = UdevAdmission()
        admission.watch(["iio", "input"])
        #expect(admission.enumeration(of: "iio", sysname: nil).first)
        #expect(!admission.enumeration(of: "iio", sysname: nil).first)
        #expect(admission.enumeration(of: "input", sysname: "event*").first)
        #expect(admission.enumeration(of: "input", sysname: nil).first)
        admission.watch(["iio", "input"])
        #expect(admission.enumeration(of: "iio", sysname: nil).first)
    }
}
