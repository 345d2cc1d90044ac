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

    @Test("A property's value on the bus has the type its signature says")
    func valuesMatchSignatures() {
        var properties = SensorProxyProperties()
        properties.setPresent(true, of: .light)
        properties.update(.light(level: 12.5, unit: .vendor))
        for property in BusObject.allCases.flatMap(\.properties) {
            let signature = switch property.value(properties) {
            case .boolean: "b"
            case .double: "d"
            case .string: "s"
            }
            #expect(signature == property.signature, "\(property.name)")
        }
        let level = BusObject.sensorProxy.properties.first { $0.name == "LightLevel" }
        #expect(level?.value(properties) == .double(12.5))
    }
}
