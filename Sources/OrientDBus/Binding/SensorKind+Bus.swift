import OrientCore

extension SensorKind {
    /// How this kind appears on net.hadess.SensorProxy, as iio-sensor-proxy names its members.
    var bus: BusBinding {
        switch self {
        case .accelerometer:
            BusBinding(
                object: .sensorProxy, member: "Accelerometer",
                properties: [
                    .boolean("HasAccelerometer") { $0.hasAccelerometer },
                    .string("AccelerometerOrientation") { $0.accelerometerOrientation },
                    // Newer iio-sensor-proxy versions (3.x after Debian's 3.0).
                    .string("AccelerometerTilt") { $0.accelerometerTilt },
                ])
        case .light:
            // iio-sensor-proxy announces the unit with every level.
            .reading(
                .light, object: .sensorProxy, member: "Light", presence: "HasAmbientLight",
                values: ["LightLevelUnit", "LightLevel"], announcement: ["LightLevel", "LightLevelUnit"],
                before: .light(level: 0, unit: .lux))
        case .proximity:
            .reading(
                .proximity, object: .sensorProxy, member: "Proximity", presence: "HasProximity", values: ["ProximityNear"],
                before: .proximity(near: false))
        case .compass:
            .reading(
                .compass, object: .compass, member: "Compass", presence: "HasCompass", values: ["CompassHeading"],
                before: .compass(heading: 0))
        }
    }
}

extension Reading {
    /// The reading as its kind's properties carry it, in the order of the binding's `values`.
    var busValues: [BusValue] {
        switch self {
        case .light(let level, let unit): [.string(unit.rawValue), .double(level)]
        case .proximity(let near): [.boolean(near)]
        case .compass(let heading): [.double(heading)]
        }
    }
}
