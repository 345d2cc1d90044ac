import OrientSensors

extension DoctorReport {
    /// Reads the kernel hinge sensors once, after the accelerometer: the one the capture read beside it, else the
    /// first found (the capture reads none when it found no accelerometer).
    mutating func examineHingeSensor(udev: UdevHub, opened: String?) {
        let found = HingeSensorFacts.examine(udev: udev)
        hingeSensor = found.first { $0.id == opened } ?? found.first
    }

    /// The hinge sensor's lines: its attributes as read and the angle they give.
    var hingeSensorLines: [String] {
        guard let hingeSensor else { return [] }
        var lines = ["", "Hinge sensor \(hingeSensor.id) (\(hingeSensor.name)): the kernel's, its angle is the hinge's"]
        lines.append("  path: \(hingeSensor.path)")
        if !hingeSensor.attributes.isEmpty {
            lines.append("  " + hingeSensor.attributes.map { "\($0.name) \($0.value)" }.joined(separator: ", "))
        }
        if let angle = hingeSensor.angle {
            lines.append("  angle: \(Self.format(angle))°")
        } else {
            lines.append("  angle: unknown: \(hingeSensor.problem ?? "?")")
        }
        return lines
    }
}
