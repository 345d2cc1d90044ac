import OrientCore
@testable import OrientSensors
import Testing

/// What udev shows of a machine, as the tablet-mode switch's decision takes it.
@Suite("The machine as the tablet-mode switch's decision sees it")
struct TabletModeSwitchMachineTests {
    static let display = AccelerometerCandidate(id: "iio:device1", path: "/sys/devices/d/iio:device1", name: "accel_3d")
    static let base = AccelerometerCandidate(
        id: "iio:device0", path: "/sys/devices/b/iio:device0", name: "accel_3d", locationProperty: "base")
    static let labelledBase = AccelerometerCandidate(
        id: "iio:device2", path: "/sys/devices/c/iio:device2", name: "bmc150", label: "accel-base")

    @Test("A display and a base accelerometer tell the posture, named by their ids; a display alone does not")
    func posture() {
        let machine = TabletModeSwitchDiscovery.machine(accelerometers: [Self.base, Self.display], switches: [])
        #expect(machine.postureSource == "display and base accelerometers (iio:device1, iio:device0)")
        #expect(TabletModeSwitchDiscovery.machine(accelerometers: [Self.display], switches: []).postureSource == nil)
        #expect(TabletModeSwitchDiscovery.machine(accelerometers: [Self.base], switches: []).postureSource == nil,
                "a base alone turns nothing")
        let labelled = TabletModeSwitchDiscovery.machine(accelerometers: [Self.display, Self.labelledBase], switches: [])
        #expect(labelled.postureSource == "display and base accelerometers (iio:device1, iio:device2)", "the sysfs label counts")
    }

    @Test("A kernel hinge sensor beside a display accelerometer tells the posture, and is named before a base; alone it does not")
    func hingeSensor() {
        let hinge = IIODeviceFacts(id: "iio:device4", path: "/sys/devices/h/iio:device4", name: "hinge", sensorProxyTypes: [], attributes: [])
        let withHinge = TabletModeSwitchDiscovery.machine(accelerometers: [Self.display], switches: [], hingeSensors: [hinge])
        #expect(withHinge.postureSource == "the kernel's hinge sensor hinge (iio:device4)")
        let both = TabletModeSwitchDiscovery.machine(accelerometers: [Self.base, Self.display], switches: [], hingeSensors: [hinge])
        #expect(both.postureSource == "the kernel's hinge sensor hinge (iio:device4)")
        #expect(TabletModeSwitchDiscovery.machine(accelerometers: [], switches: [], hingeSensors: [hinge]).postureSource == nil,
                "no accelerometer: nothing is read")
    }

    @Test("Every switch but orientd's own counts, with libinput's ignore tag carried over")
    func switches() {
        let switches = [
            TabletModeSwitchDevice(name: "Intel Virtual Buttons", node: "/dev/input/event6", isOrientds: false),
            TabletModeSwitchDevice(name: "orientd tablet mode switch", node: "/dev/input/event9", isOrientds: true),
            TabletModeSwitchDevice(name: "Intel HID switches", node: "/dev/input/event7", isOrientds: false, ignoredByLibinput: true),
        ]
        let machine = TabletModeSwitchDiscovery.machine(accelerometers: [], switches: switches)
        #expect(machine.switches == [
            TabletModeSwitchPolicy.Switch(name: "Intel Virtual Buttons", node: "/dev/input/event6"),
            TabletModeSwitchPolicy.Switch(name: "Intel HID switches", node: "/dev/input/event7", ignoredByLibinput: true),
        ])
    }
}
