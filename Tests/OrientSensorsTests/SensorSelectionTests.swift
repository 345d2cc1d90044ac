import OrientCore
import OrientSensors
import Testing

@Suite("Choosing the accelerometer and its mount matrix")
struct SensorSelectionTests {
    private func candidate(_ id: String, location: String? = nil, label: String? = nil, name: String? = nil) -> AccelerometerCandidate {
        AccelerometerCandidate(id: id, path: "/sys/devices/x/\(id)", name: name, locationProperty: location, label: label)
    }

    @Test("The display sensor is chosen; a base one only when configured; the configured one always wins")
    func choice() {
        let base = candidate("iio:device0", location: "base")
        let display = candidate("iio:device1", label: "accel-display", name: "accel_3d")
        guard case .chosen(let chosen, _) = SensorSelection.choose(from: [base, display], configured: nil) else {
            Issue.record("nothing chosen")
            return
        }
        #expect(chosen.id == "iio:device1")
        if case .chosen = SensorSelection.choose(from: [base], configured: nil) { Issue.record("a base sensor was chosen") }
        for configured in ["iio:device0", "/sys/devices/x/iio:device0"] {
            guard case .chosen(let named, _) = SensorSelection.choose(from: [base, display], configured: configured) else {
                Issue.record("\(configured) not found")
                continue
            }
            #expect(named.id == "iio:device0")
        }
        guard case .chosen(let byName, _) = SensorSelection.choose(from: [base, display], configured: "accel_3d") else {
            Issue.record("accel_3d not found")
            return
        }
        #expect(byName.id == "iio:device1")
        #expect(SensorSelection.choose(from: [display], configured: "iio:device7") != .chosen(display, reason: ""))
        #expect(SensorSelection.choose(from: [], configured: nil) == .none(reason: "no IIO accelerometer found"))
    }

    @Test("Devices are ordered by number: iio:device2 before iio:device10")
    func ordering() {
        guard case .chosen(let first, _) = SensorSelection.choose(
            from: [candidate("iio:device10"), candidate("iio:device2")], configured: nil)
        else {
            Issue.record("nothing chosen")
            return
        }
        #expect(first.id == "iio:device2")
    }

    @Test("Location: udev property, then sysfs label, then sysfs location, else display")
    func location() {
        #expect(candidate("a", location: "base").location == .base)
        #expect(candidate("a", location: "display", label: "accel-base").location == .display)
        #expect(candidate("a", label: "accel-base").location == .base)
        var lid = candidate("a")
        lid.locationAttribute = "base"
        #expect(lid.location == .base)
        #expect(candidate("a").location == .display)
    }

    @Test("Mount matrix: override, then udev, then sysfs in order, skipping malformed ones, else identity")
    func matrixPrecedence() throws {
        let udev = "0, -1, 0; -1, 0, 0; 0, 0, 1"
        var c = AccelerometerCandidate(
            id: "iio:device0", path: "/p", mountMatrixProperty: udev,
            mountMatrixAttributes: ["mount_matrix": "1, 0, 0; 0, -1, 0; 0, 0, -1", "in_accel_mount_matrix": "0, 1, 0; 1, 0, 0; 0, 0, 1"])
        #expect(c.mountMatrix().0 == (try MountMatrix(parsing: udev)))
        #expect(c.mountMatrix().1 == .udevProperty)
        c.mountMatrixProperty = "garbage"
        let (matrix, source, problems) = c.mountMatrix()
        #expect(source == .sysfs(attribute: "in_accel_mount_matrix"))
        #expect(matrix == (try MountMatrix(parsing: "0, 1, 0; 1, 0, 0; 0, 0, 1")))
        #expect(problems.count == 1 && problems[0].contains("ACCEL_MOUNT_MATRIX ignored"))
        c.mountMatrixAttributes = [:]
        #expect(c.mountMatrix().1 == .identity)
    }
}
