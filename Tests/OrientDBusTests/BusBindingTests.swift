import OrientCore
import OrientSampleSource
import Testing

@testable import OrientDBus

/// The facade's members as the kinds' bindings generate them: iio-sensor-proxy's, as its clients call them.
@Suite("net.hadess.SensorProxy members from the kinds' bindings")
struct BusBindingTests {
    @Test("The main object: iio-sensor-proxy's properties with their types, and a claim and a release per kind")
    func mainObject() {
        let object = BusObject.sensorProxy
        #expect(object.path == "/net/hadess/SensorProxy" && object.interface == "net.hadess.SensorProxy")
        #expect(object.properties.map { "\($0.name) \($0.signature)" } == [
            "HasAccelerometer b", "AccelerometerOrientation s", "AccelerometerTilt s", "HasAmbientLight b",
            "LightLevelUnit s", "LightLevel d", "HasProximity b", "ProximityNear b",
        ])
        #expect(object.bindings.flatMap { [$0.claimMethod, $0.releaseMethod] } == [
            "ClaimAccelerometer", "ReleaseAccelerometer", "ClaimLight", "ReleaseLight", "ClaimProximity",
            "ReleaseProximity",
        ])
    }

    @Test("The compass has an object and interface of its own")
    func compassObject() {
        let object = BusObject.compass
        #expect(object.path == "/net/hadess/SensorProxy/Compass" && object.interface == "net.hadess.SensorProxy.Compass")
        #expect(object.properties.map { "\($0.name) \($0.signature)" } == ["HasCompass b", "CompassHeading d"])
        #expect(object.bindings.flatMap { [$0.claimMethod, $0.releaseMethod] } == ["ClaimCompass", "ReleaseCompass"])
    }

    @Test("Every kind is bound on one object, and no member name is used twice")
    func everyKindOnce() {
        #expect(BusObject.allCases.flatMap(\.bindings).count == SensorKind.allCases.count)
        let properties = BusObject.allCases.flatMap(\.properties).map(\.name)
        #expect(Set(properties).count == properties.count)
        let methods = SensorKind.allCases.flatMap { [$0.bus.claimMethod, $0.bus.releaseMethod] }
        #expect(Set(methods).count == methods.count)
    }

    @Test("An object's table holds each property's value in introspection order, of the type its signature says")
    func valuesMatchSignatures() {
        var properties = SensorProxyProperties()
        properties.setPresent(true, of: .light)
        properties.update(.light(level: 12.5, unit: .vendor))
        for object in BusObject.allCases {
            let values = object.values(properties)
            #expect(values.count == object.properties.count, "one value per property, in the table's order")
            for (property, value) in zip(object.properties, values) {
                let signature = switch value {
                case .boolean: "b"
                case .double: "d"
                case .string: "s"
                }
                #expect(signature == property.signature, "\(property.name)")
            }
        }
        let main = BusObject.sensorProxy
        #expect(main.values(properties)[main.properties.firstIndex { $0.name == "LightLevel" }!] == .double(12.5))
    }

    @Test("A change goes to the claimants of its kind only, each once")
    func recipients() {
        let claimants: [SensorKind: [String]] = [.light: [":1.5", ":1.7"], .accelerometer: [":1.7"], .compass: [":1.9"]]
        let light = BusObject.sensorProxy.recipients(of: ["LightLevel", "LightLevelUnit"], claimants: claimants)
        #expect(light.map(\.client) == [":1.5", ":1.7"])
        #expect(light.allSatisfy { $0.names == ["LightLevelUnit", "LightLevel"] })
        let both = BusObject.sensorProxy.recipients(of: ["AccelerometerOrientation", "LightLevel"], claimants: claimants)
        #expect(both.map(\.client) == [":1.5", ":1.7"])
        #expect(both.last?.names == ["AccelerometerOrientation", "LightLevel"])
        #expect(BusObject.sensorProxy.recipients(of: ["ProximityNear"], claimants: claimants).isEmpty, "nobody claims it")
        let plugged = BusObject.sensorProxy.recipients(of: ["HasAccelerometer"], claimants: claimants)
        #expect(plugged.map(\.client) == [":1.7"])
        #expect(plugged.first?.names == ["HasAccelerometer"])
        #expect(BusObject.compass.recipients(of: ["CompassHeading"], claimants: claimants).map(\.client) == [":1.9"])
    }
}
