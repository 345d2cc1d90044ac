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
            BusBinding(
                object: .sensorProxy, member: "Light",
                properties: [
                    .boolean("HasAmbientLight") { $0.hasAmbientLight },
                    .string("LightLevelUnit", announcedAs: Self.lightAnnouncement) { $0.lightLevelUnit.rawValue },
                    .double("LightLevel", announcedAs: Self.lightAnnouncement) { $0.lightLevel },
                ])
        case .proximity:
            BusBinding(
                object: .sensorProxy, member: "Proximity",
                properties: [
                    .boolean("HasProximity") { $0.hasProximity },
                    .boolean("ProximityNear") { $0.proximityNear },
                ])
        case .compass:
            BusBinding(
                object: .compass, member: "Compass",
                properties: [
                    .boolean("HasCompass") { $0.hasCompass },
                    .double("CompassHeading") { $0.compassHeading },
                ])
        }
    }

    /// iio-sensor-proxy announces the unit with every level.
    private static let lightAnnouncement = ["LightLevel", "LightLevelUnit"]
}
