import OrientCore
@testable import OrientDBus
import OrientSampleSource
import Testing

extension SensorProxyProperties {
    /// A property's value as a client reads it, through its object's table.
    fileprivate func bus(_ name: String) -> BusValue? {
        for object in BusObject.allCases {
            if let index = object.properties.firstIndex(where: { $0.name == name }) { return object.values(self)[index] }
        }
        return nil
    }
}

extension BusObject {
    /// What `PropertiesChanged` lists between two sets of properties, through the tables the connection keeps.
    fileprivate func changedNames(_ current: SensorProxyProperties, since earlier: SensorProxyProperties) -> [String] {
        changedNames(values(current), since: values(earlier))
    }
}

@Suite("net.hadess.SensorProxy property values")
struct SensorProxyPropertiesTests {
    private func present() -> SensorProxyProperties {
        var properties = SensorProxyProperties()
        properties.setPresent(true, of: .accelerometer)
        return properties
    }

    @Test("Upright device orientations get iio-sensor-proxy's names: the edge that points up")
    func names() {
        #expect(SensorProxyProperties.name(of: .portrait) == "normal")
        #expect(SensorProxyProperties.name(of: .portraitUpsideDown) == "bottom-up")
        // Landscape right: the home edge on the right, so the left edge is up.
        #expect(SensorProxyProperties.name(of: .landscapeRight) == "left-up")
        #expect(SensorProxyProperties.name(of: .landscapeLeft) == "right-up")
        for flat in [DeviceOrientation.faceUp, .faceDown, .unknown] { #expect(SensorProxyProperties.name(of: flat) == nil) }
    }

    @Test("undefined until the first upright orientation, even while lying flat")
    func undefinedBeforeUpright() {
        var properties = present()
        #expect(properties.hasAccelerometer)
        #expect(properties.accelerometerOrientation == "undefined")
        properties.update(device: .faceUp, readable: true)
        #expect(properties.accelerometerOrientation == "undefined")
        properties.update(device: .landscapeLeft, readable: true)
        #expect(properties.accelerometerOrientation == "right-up")
    }

    @Test("Face up, face down and unknown keep the last upright value")
    func flatKeepsLastUpright() {
        var properties = present()
        properties.update(device: .portraitUpsideDown, readable: true)
        for flat in [DeviceOrientation.faceUp, .faceDown, .unknown] {
            properties.update(device: flat, readable: true)
            #expect(properties.accelerometerOrientation == "bottom-up")
        }
    }

    @Test("An unplugged sensor: no accelerometer, undefined, and a replugged one starts from undefined")
    func unplugAndReplug() {
        var properties = present()
        properties.update(device: .landscapeRight, readable: true)
        properties.setPresent(false, of: .accelerometer)
        #expect(!properties.hasAccelerometer)
        #expect(properties.accelerometerOrientation == "undefined")
        properties.setPresent(true, of: .accelerometer)
        #expect(properties.hasAccelerometer)
        #expect(properties.accelerometerOrientation == "undefined")
        properties.update(device: .faceDown, readable: true)
        #expect(properties.accelerometerOrientation == "undefined")
        properties.update(device: .portrait, readable: true)
        #expect(properties.accelerometerOrientation == "normal")
    }

    @Test("A sensor that cannot be read reports undefined and forgets its last value")
    func unreadable() {
        var properties = present()
        properties.update(device: .portrait, readable: true)
        properties.update(device: .unknown, readable: false)
        #expect(properties.hasAccelerometer)
        #expect(properties.accelerometerOrientation == "undefined")
        properties.update(device: .faceUp, readable: true)
        #expect(properties.accelerometerOrientation == "undefined")
    }

    @Test("PropertiesChanged lists exactly the properties whose values changed")
    func changedNames() {
        let absent = SensorProxyProperties()
        var properties = present()
        #expect(BusObject.sensorProxy.changedNames(properties, since: absent) == ["HasAccelerometer"])
        let before = properties
        properties.update(device: .landscapeRight, readable: true)
        #expect(BusObject.sensorProxy.changedNames(properties, since: before) == ["AccelerometerOrientation"])
        let upright = properties
        properties.update(device: .faceUp, readable: true)
        #expect(BusObject.sensorProxy.changedNames(properties, since: upright).isEmpty)
        properties.setPresent(false, of: .accelerometer)
        #expect(BusObject.sensorProxy.changedNames(properties, since: upright) == ["HasAccelerometer", "AccelerometerOrientation"])
    }

    @Test("On a landscape panel the names stay the panel's edges: upright as installed is normal, the left edge up left-up")
    func landscapePanel() {
        var properties = SensorProxyProperties()
        properties.setPresent(true, of: .accelerometer)
        properties.setNatural(.landscape)
        properties.update(device: .landscapeLeft, readable: true)
        #expect(properties.accelerometerOrientation == "normal")
        properties.update(device: .portrait, readable: true)
        #expect(properties.accelerometerOrientation == "left-up")
        properties.update(device: .landscapeRight, readable: true)
        #expect(properties.accelerometerOrientation == "bottom-up")
        properties.update(device: .portraitUpsideDown, readable: true)
        #expect(properties.accelerometerOrientation == "right-up")
        // The same device orientation named on a portrait panel is another edge up.
        properties.setNatural(.portrait)
        #expect(properties.accelerometerOrientation == "bottom-up")
    }
}

@Suite("net.hadess.SensorProxy light properties")
struct SensorProxyLightPropertiesTests {
    @Test("0 lux and absent until told; a reading announces LightLevel with LightLevelUnit; unplugging keeps the level")
    func light() {
        let start = SensorProxyProperties()
        #expect(start.bus("HasAmbientLight") == .boolean(false) && start.bus("LightLevel") == .double(0))
        #expect(start.bus("LightLevelUnit") == .string("lux"))
        var properties = start
        properties.setPresent(true, of: .light)
        #expect(BusObject.sensorProxy.changedNames(properties, since: start) == ["HasAmbientLight"])
        let present = properties
        properties.update(.light(level: 50, unit: .lux))
        #expect(BusObject.sensorProxy.changedNames(properties, since: present) == ["LightLevel", "LightLevelUnit"])
        let read = properties
        properties.update(.light(level: 50, unit: .lux))
        #expect(BusObject.sensorProxy.changedNames(properties, since: read).isEmpty, "the same level is no change")
        properties.update(.light(level: 50, unit: .vendor))
        #expect(BusObject.sensorProxy.changedNames(properties, since: read) == ["LightLevel", "LightLevelUnit"], "a unit change is announced")
        properties.setPresent(false, of: .light)
        #expect(properties.bus("HasAmbientLight") == .boolean(false) && properties.bus("LightLevel") == .double(50))
        #expect(properties.hasAccelerometer == false, "the accelerometer is another sensor")
    }
}

@Suite("net.hadess.SensorProxy proximity properties")
struct SensorProxyProximityPropertiesTests {
    @Test("Far and absent until told; a change of nearness announces ProximityNear; unplugging keeps it")
    func proximity() {
        let start = SensorProxyProperties()
        #expect(start.bus("HasProximity") == .boolean(false) && start.bus("ProximityNear") == .boolean(false))
        var properties = start
        properties.setPresent(true, of: .proximity)
        #expect(BusObject.sensorProxy.changedNames(properties, since: start) == ["HasProximity"])
        let present = properties
        properties.update(.proximity(near: false))
        #expect(BusObject.sensorProxy.changedNames(properties, since: present).isEmpty, "far again is no change")
        properties.update(.proximity(near: true))
        #expect(BusObject.sensorProxy.changedNames(properties, since: present) == ["ProximityNear"])
        properties.setPresent(false, of: .proximity)
        #expect(properties.bus("HasProximity") == .boolean(false) && properties.bus("ProximityNear") == .boolean(true))
        #expect(properties.bus("HasAmbientLight") == .boolean(false) && properties.bus("LightLevel") == .double(0), "the light sensor is another sensor")
    }

    @Test("AccelerometerTilt: undefined until a tilt while readable, announced on change, kept after a release, undefined when lost or unplugged")
    func tilt() {
        var properties = SensorProxyProperties()
        properties.setPresent(true, of: .accelerometer)
        #expect(properties.accelerometerTilt == "undefined")
        properties.update(device: .portrait, readable: true)
        let before = properties
        properties.update(tilt: .tiltedUp)
        #expect(properties.accelerometerTilt == "tilted-up")
        #expect(BusObject.sensorProxy.changedNames(properties, since: before) == ["AccelerometerTilt"])
        // A release keeps the state readable (the sensor is only closed): the value stays.
        properties.update(device: .portrait, readable: true)
        #expect(properties.accelerometerTilt == "tilted-up")
        properties.update(device: .unknown, readable: false)
        #expect(properties.accelerometerTilt == "undefined")
        properties.update(device: .unknown, readable: true)
        #expect(properties.accelerometerTilt == "undefined", "a sensor that comes back starts from undefined")
        properties.update(tilt: .faceDown)
        properties.setPresent(false, of: .accelerometer)
        #expect(properties.accelerometerTilt == "undefined")
        properties.setPresent(true, of: .accelerometer)
        #expect(properties.accelerometerTilt == "undefined")
    }
}

@Suite("net.hadess.SensorProxy compass properties")
struct SensorProxyCompassPropertiesTests {
    @Test("0 and absent until told; a heading is announced on the compass object only; unplugging keeps it")
    func compass() {
        let start = SensorProxyProperties()
        #expect(start.bus("HasCompass") == .boolean(false) && start.bus("CompassHeading") == .double(0))
        var properties = start
        properties.setPresent(true, of: .compass)
        #expect(BusObject.compass.changedNames(properties, since: start) == ["HasCompass"])
        #expect(BusObject.sensorProxy.changedNames(properties, since: start).isEmpty, "nothing changed on the main object")
        let present = properties
        properties.update(.compass(heading: 271.5))
        #expect(BusObject.compass.changedNames(properties, since: present) == ["CompassHeading"])
        #expect(BusObject.sensorProxy.changedNames(properties, since: present).isEmpty)
        properties.setPresent(false, of: .compass)
        #expect(properties.bus("HasCompass") == .boolean(false) && properties.bus("CompassHeading") == .double(271.5))
        #expect(properties.bus("HasAmbientLight") == .boolean(false) && properties.bus("LightLevel") == .double(0), "the light sensor is another sensor")
    }
}

@Suite("net.hadess.SensorProxy properties from the store's snapshot")
struct SensorProxySnapshotTests {
    @Test("From the store's snapshot: presence, readings and the orientation named by the panel; a reading the store forgot stays shown")
    func fromSnapshot() {
        var properties = SensorProxyProperties()
        var snapshot = SensorSnapshot(sensors: [
            .accelerometer: .init(present: true, last: .orientation(.init(device: .landscapeRight, tilt: .vertical))),
            .light: .init(present: true, last: .reading(.light(level: 40, unit: .lux))),
        ])
        properties.show(snapshot)
        #expect(properties.hasAccelerometer && properties.accelerometerOrientation == "left-up")
        #expect(properties.accelerometerTilt == "vertical")
        #expect(properties.bus("HasAmbientLight") == .boolean(true) && properties.bus("LightLevel") == .double(40))
        #expect(properties.bus("HasProximity") == .boolean(false), "a kind not served is not there")
        snapshot.sensors[.light] = .init(present: false, last: nil)
        snapshot.orientation?.device = .faceUp
        properties.show(snapshot)
        #expect(properties.bus("HasAmbientLight") == .boolean(false) && properties.bus("LightLevel") == .double(40), "unplugged: the last level stays")
        #expect(properties.accelerometerOrientation == "left-up", "lying flat keeps the last upright one")
        snapshot.natural = .landscape
        snapshot.orientation?.device = .portrait
        properties.show(snapshot)
        #expect(properties.accelerometerOrientation == "left-up", "on a landscape panel, portrait has the left edge up")
    }

    @Test("An accelerometer plugged in that cannot be read shows undefined, and starts again from undefined when it reads")
    func unreadable() {
        var properties = SensorProxyProperties()
        var snapshot = SensorSnapshot(sensors: [
            .accelerometer: .init(present: true, last: .orientation(.init(device: .landscapeRight, tilt: .tiltedUp)))
        ])
        properties.show(snapshot)
        #expect(properties.accelerometerOrientation == "left-up" && properties.accelerometerTilt == "tilted-up")
        snapshot.orientation = nil
        properties.show(snapshot)
        #expect(properties.hasAccelerometer, "still plugged in")
        #expect(properties.accelerometerOrientation == "undefined" && properties.accelerometerTilt == "undefined")
        snapshot.orientation = .init(device: .faceUp, tilt: .faceUp)
        properties.show(snapshot)
        #expect(properties.accelerometerOrientation == "undefined", "lying flat: no upright one since it came back")
    }
}
