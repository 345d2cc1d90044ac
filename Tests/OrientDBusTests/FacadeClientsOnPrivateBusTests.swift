import Foundation
import OrientCore
import OrientDBus
import OrientSampleSource
import Testing

extension FacadeOnPrivateBusTests.Bus {
    /// busctl on this bus: its exit status, standard output and standard error.
    func busctl(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
        let busctl = Process()
        busctl.executableURL = URL(fileURLWithPath: "/usr/bin/busctl")
        busctl.arguments = ["--address=\(address)"] + arguments
        let output = Pipe()
        let error = Pipe()
        busctl.standardOutput = output
        busctl.standardError = error
        guard (try? busctl.run()) != nil else { return (-1, "", "busctl did not start") }
        let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        busctl.waitUntilExit()
        return (busctl.terminationStatus, stdout, stderr)
    }

    /// A method call on the main object, by busctl.
    func call(_ method: String, _ arguments: [String] = []) -> (status: Int32, stdout: String, stderr: String) {
        busctl(["call", "net.hadess.SensorProxy", "/net/hadess/SensorProxy", "net.hadess.SensorProxy", method] + arguments)
    }
}

/// The in-process facade as clients other than the tests' own see it: busctl's introspection and its bad calls,
/// iio-sensor-proxy's monitor-sensor through a hot-plug, a claimant told of each tilt.
@Suite(
    "The D-Bus facade in-process, to busctl and monitor-sensor", .serialized,
    .enabled(if: BusTools.present, "needs dbus-daemon, busctl, gdbus, python3-gi and python3-dbusmock"))
struct FacadeClientsOnPrivateBusTests {
    typealias Bus = FacadeOnPrivateBusTests.Bus
    static let monitorSensor = "/usr/bin/monitor-sensor"

    /// The accelerometer alone, plugged in and read: the device upright as `device`, tilted as `tilt`.
    static func accelerometer(_ device: DeviceOrientation, tilt: AccelerometerTilt = .vertical, firstReadings: Int = 1) -> SensorSnapshot {
        SensorSnapshot(sensors: [
            .accelerometer: .init(
                present: true, last: .orientation(.init(device: device, tilt: tilt)), readSinceStart: true, firstReadings: firstReadings),
        ])
    }

    private func waitFor(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<1000 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @Test("busctl sees iio-sensor-proxy's whole interface; claims and releases of absent kinds succeed; bad calls get D-Bus errors")
    func surface() async throws {
        let bus = try Bus()
        let served = try FacadeOnPrivateBusTests.ServedFacade(on: bus)
        served.facade.update(Self.accelerometer(.portrait))
        #expect(await waitFor { bus.property("HasAccelerometer") == "b true" })
        let introspection = bus.busctl(["introspect", "net.hadess.SensorProxy", "/net/hadess/SensorProxy"]).stdout
        for member in [
            "ClaimAccelerometer", "ReleaseAccelerometer", "ClaimLight", "ReleaseLight", "ClaimProximity", "ReleaseProximity",
            "HasAccelerometer", "AccelerometerOrientation", "AccelerometerTilt", "HasAmbientLight", "LightLevelUnit",
            "LightLevel", "HasProximity", "ProximityNear", "org.freedesktop.DBus.Properties", "PropertiesChanged",
        ] {
            #expect(introspection.contains(member), "\(member) in:\n\(introspection)")
        }
        #expect(bus.property("HasAmbientLight") == "b false")
        for method in ["ClaimLight", "ReleaseLight", "ClaimProximity", "ReleaseProximity", "ReleaseAccelerometer"] {
            let call = bus.call(method)
            #expect(call.status == 0, "\(method): \(call.stderr)")
        }
        let unknown = bus.call("Rotate")
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("Unknown method") || unknown.stderr.contains("UnknownMethod"), "\(unknown.stderr)")
        #expect(bus.call("ClaimAccelerometer", ["s", "x"]).status != 0, "a method without arguments refuses one")
        #expect(served.claims.filter { $0.hasPrefix("accelerometer") }.isEmpty, "the refused call claimed nothing: \(served.claims)")
        let write = bus.busctl(
            ["set-property", "net.hadess.SensorProxy", "/net/hadess/SensorProxy", "net.hadess.SensorProxy", "HasAccelerometer", "b", "false"])
        #expect(write.status != 0, "properties are read-only")
        #expect(bus.property("HasAccelerometer") == "b true")
        #expect(bus.call("ClaimAccelerometer").status == 0, "still serving")
    }

    @Test(
        "monitor-sensor through an unplug and a replug: disappeared, undefined, appeared, and the new orientation",
        .enabled(if: FileManager.default.isExecutableFile(atPath: monitorSensor), "needs iio-sensor-proxy's monitor-sensor"))
    func hotplug() async throws {
        let bus = try Bus()
        let served = try FacadeOnPrivateBusTests.ServedFacade(on: bus)
        served.facade.update(Self.accelerometer(.portrait))
        #expect(await waitFor { bus.property("HasAccelerometer") == "b true" })
        // stdbuf: monitor-sensor prints through stdio, block-buffered into a pipe.
        let monitor = try FacadeOnPrivateBusTests.LineProcess(
            "/usr/bin/stdbuf", ["-oL", Self.monitorSensor, "--accel"], environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        #expect(monitor.line { $0 == "=== Has accelerometer (orientation: normal)" } != nil, "\(monitor.lines)")
        // monitor-sensor 3.0 claims every kind, whichever it is asked to show.
        #expect(await waitFor { served.claims.contains("accelerometer 1") }, "\(served.claims)")
        var start = monitor.lines.count
        served.facade.update(SensorSnapshot(sensors: [.accelerometer: .init(present: false, firstReadings: 1)]))
        #expect(monitor.line(after: start) { $0 == "--- Accelerometer disappeared" } != nil, "\(monitor.lines)")
        #expect(bus.property("HasAccelerometer") == "b false")
        #expect(bus.property("AccelerometerOrientation") == "s \"undefined\"")
        start = monitor.lines.count
        served.facade.update(Self.accelerometer(.landscapeRight, firstReadings: 2))
        #expect(monitor.line(after: start) { $0 == "+++ Accelerometer appeared" } != nil, "\(monitor.lines)")
        #expect(monitor.line(after: start) { $0.hasSuffix("orientation changed: left-up") } != nil, "\(monitor.lines)")
        #expect(!served.claims.contains("accelerometer 0"), "the claim held through the unplug: \(served.claims)")
    }

    @Test("AccelerometerTilt: each change told to the claimant with PropertiesChanged; after its release, told no more and kept")
    func tilt() async throws {
        let bus = try Bus()
        let served = try FacadeOnPrivateBusTests.ServedFacade(on: bus)
        served.facade.update(SensorSnapshot(sensors: [.accelerometer: .init(present: true)]))
        #expect(await waitFor { bus.property("AccelerometerTilt") == "s \"undefined\"" })
        let client = try FacadeOnPrivateBusTests.client(on: bus)
        client.send("watch")
        client.send("claim")
        served.facade.update(Self.accelerometer(.portrait))
        #expect(client.line { $0 == "ok" } != nil)
        #expect(await waitFor { served.claims == ["accelerometer 1"] })
        var start = client.lines.count
        served.facade.update(Self.accelerometer(.portrait, tilt: .tiltedDown))
        let told = client.line(after: start) { $0.hasPrefix("signal ") }
        #expect(told?.contains("{'AccelerometerTilt': <'tilted-down'>}") == true, "the tilt alone: \(client.lines)")
        #expect(bus.property("AccelerometerTilt") == "s \"tilted-down\"")
        start = client.lines.count
        client.send("release")
        #expect(client.line(after: start) { $0 == "ok" } != nil)
        #expect(await waitFor { served.claims == ["accelerometer 1", "accelerometer 0"] })
        start = client.lines.count
        served.facade.update(Self.accelerometer(.portrait, tilt: .faceDown))
        #expect(await waitFor { bus.property("AccelerometerTilt") == "s \"face-down\"" })
        usleep(300_000)
        #expect(!client.lines.dropFirst(start).contains { $0.hasPrefix("signal ") }, "released: \(client.lines)")
    }
}
