import Foundation
import OrientProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Light and proximity on the socket: the real daemon with D-Bus off, an emulated accelerometer, polled light and
/// proximity sensors (umockdev), raw socket clients and the real orientctl. Who is sent which reading, and how
/// orientctl asks and prints, are tested in process (PublishedReadingsTests, OrientctlReadingsTests).
@Suite(
    "Light and proximity on the socket", .serialized,
    .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct SocketReadingsTests {
    final class Setup {
        let testbed: UmockdevTestbed
        let accelerometerPath: String
        let lightPath: String
        let proximityPath: String
        let daemon: DaemonHarness

        init() throws {
            testbed = try UmockdevTestbed()
            accelerometerPath = try testbed.addDevice(
                "iio:device0", attributes: LiveSensorTests.portraitAttributes,
                properties: ["ACCEL_MOUNT_MATRIX": "1, 0, 0; 0, 1, 0; 0, 0, 1"])
            lightPath = try testbed.addDevice(
                "iio:device1", attributes: LightSensorTests.lightAttributes, properties: LightSensorTests.lightProperties)
            proximityPath = try testbed.addDevice(
                "iio:device2", attributes: ProximitySensorTests.proximityAttributes,
                properties: ProximitySensorTests.proximityProperties)
            // No --dbus: the socket alone wants the sensors.
            daemon = try DaemonHarness(["--rate", "50"], environment: testbed.environment)
            try daemon.waitUntilListening()
        }

        func orientctl(_ arguments: [String]) throws -> OrientdProcess.Output {
            try OrientdProcess.run(arguments + ["--socket", daemon.socket], executable: OrientdProcess.orientctl)
        }

        /// Reads `client`'s lines until one satisfies `matches`; returns every line read meanwhile, that one last.
        func read(_ client: LineClient, until matches: (String) -> Bool) -> [String] {
            var lines: [String] = []
            while let line = client.readLine(timeout: 10) {
                lines.append(line)
                if matches(line) { break }
            }
            return lines
        }

        func status() throws -> StatusReport? {
            let client = try LineClient(path: daemon.socket)
            return client.request(#""op":"status""#)?.statusReport
        }

        func light() throws -> StatusReport.ReadingSensor? { try status()?.readingSensors?.first { $0.kind == "light" } }
    }

    static let fifty = #"{"event":"light","present":true,"level":50,"unit":"lux"}"#

    @Test("The light sensor opens for a socket subscriber with no D-Bus client, and closes when it leaves; status says so")
    func opensAndCloses() throws {
        let setup = try Setup()
        #expect(waitFor { (try? setup.light())?.present == true }, "udev's word, the sensor closed")
        #expect(try setup.light()?.open == false)
        #expect(!setup.daemon.log.contains("opening the light sensor"))
        var subscriber: LineClient? = try LineClient(path: setup.daemon.socket)
        subscriber?.send(#"{"op":"subscribe","id":1,"readings":["light"]}"# + "\n")
        #expect(setup.read(subscriber!) { $0 == Self.fifty }.last == Self.fifty, "100 raw at scale 0.5")
        #expect(setup.daemon.log.contains("opening the light sensor (0 D-Bus claim(s), 1 socket client(s))"), "\(setup.daemon.log)")
        let open = try setup.light()
        #expect(open?.open == true && open?.id == "iio:device1" && open?.name == "als" && open?.interval == 0.8)
        #expect(open?.foundBy == "IIO_SENSOR_PROXY_TYPE iio-poll-als" && open?.value == .light(level: 50, unit: .lux))
        subscriber = nil
        #expect(waitFor { setup.daemon.log.contains("closed the light sensor: no D-Bus claims, no socket clients") }, "\(setup.daemon.log)")
        #expect(try setup.light()?.open == false)
        #expect(try setup.light()?.value == .light(level: 50, unit: .lux), "the last reading is kept")
    }

    @Test("orientctl get --light opens the closed sensor and prints a fresh level, not 0; the sensor closes again")
    func getLight() throws {
        let setup = try Setup()
        try setup.testbed.set(setup.lightPath, "in_illuminance_raw", "60")
        let json = try setup.orientctl(["get", "--light", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.contains(#""fresh":true,"light":{"present":true,"level":30,"unit":"lux"}}"#), "\(json.stdout)\n\(setup.daemon.log)")
        #expect(waitFor { setup.daemon.log.contains("closed the light sensor") }, "\(setup.daemon.log)")
    }

    @Test("status lists the accelerometer and every reading sensor served, in JSON and in text")
    func status() throws {
        let setup = try Setup()
        #expect(waitFor { (try? setup.status())?.readingSensors?.allSatisfy { $0.present != nil } == true })
        let json = try setup.orientctl(["status", "--json"])
        #expect(json.stdout.contains(#""readings":{"light":{"present":true,"open":false"#), "\(json.stdout)")
        #expect(json.stdout.contains(#""proximity":{"present":true,"open":false"#), "\(json.stdout)")
        let reader = try LineClient(path: setup.daemon.socket)
        reader.send(#"{"op":"subscribe","id":1,"readings":["proximity"]}"# + "\n")
        _ = setup.read(reader) { $0.contains(#""near":false"#) }
        let text = try setup.orientctl(["status"])
        #expect(text.stdout.contains("sensor: available: iio:device0 (accel_3d)"), "\(text.stdout)")
        #expect(text.stdout.contains("\nlight: present, closed\n"), "never opened: nothing more known\n\(text.stdout)")
        #expect(text.stdout.contains(
            "\nproximity: present, open: prox (iio:device2), found by IIO_SENSOR_PROXY_TYPE iio-poll-proximity, every 0.7 s, near level 100, last read far"),
            "\(text.stdout)")
    }
}
