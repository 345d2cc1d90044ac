import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The two daemons the side-by-side lifecycle tests run, each on its own bus and testbed.
enum SideBySideDaemon: String, Sendable {
    case orientd
    case iioSensorProxy = "iio-sensor-proxy"
}

/// One daemon on its own private bus, under its own umockdev testbed with an accelerometer, and one sensor of a
/// driver that the lifecycle script plugs, changes and unplugs; seen through busctl and bus_client.py, as any D-Bus
/// client sees it. The signals are those the latest claimant heard (iio-sensor-proxy 3.9, and orientd with it, sends
/// a sensor's PropertiesChanged to its claimants only; 3.0 broadcasts them), or before the first claim those a
/// `gdbus monitor` that claims nothing heard.
final class SideBySideBench {
    static let sensorProxyDaemon = "/usr/sbin/iio-sensor-proxy"

    let driver: SideBySideDriver
    let daemon: SideBySideDaemon
    private let folder: String
    private let bus: PrivateBus
    private let testbed: UmockdevTestbed
    private var orientd: DaemonHarness?
    private var sensorProxy: LineProcess?
    private var monitor: LineProcess!
    /// The last claimant made, which hears the signals.
    private var lastClaimant: LineProcess?
    private var signals: LineProcess { lastClaimant ?? monitor }
    /// The sensor's sysfs path while plugged, and how many times it has been plugged (HID devices come back as new
    /// devices, as the kernel numbers them).
    private var sensorPath: String?
    private var plugs = 0
    /// What the sensor reads now: a buffered one is fed it while a claim waits for its first reading.
    private var lastRaw: String?

    init(_ driver: SideBySideDriver, _ daemon: SideBySideDaemon) throws {
        self.driver = driver
        self.daemon = daemon
        folder = try DaemonHarness.makeFolder()
        bus = try PrivateBus(folder: folder)
        testbed = try UmockdevTestbed()
        // Tagged for iio-sensor-proxy too, which would otherwise see no sensor left when the one under test is
        // unplugged, and exit.
        _ = try testbed.addDevice(
            "iio:device0", attributes: LiveSensorTests.portraitAttributes,
            properties: ["ACCEL_MOUNT_MATRIX": "1, 0, 0; 0, 1, 0; 0, 0, 1", "IIO_SENSOR_PROXY_TYPE": "iio-poll-accel"])
    }

    /// Starts the daemon and a monitor of the sensor's object's signals.
    func start() throws {
        let environment = testbed.environment.merging(bus.environment) { $1 }
        switch daemon {
        case .orientd:
            // iio-sensor-proxy publishes every change of the light level; orientd's light filter (the one difference
            // asked for, tested in LightSensorTests) is switched off so that the rest can be compared.
            let config = folder + "/orientd.conf"
            try "light-threshold = 0\n".write(toFile: config, atomically: true, encoding: .utf8)
            let harness = try DaemonHarness(["--dbus", "--rate", "50", "--config", config], folder: folder, environment: environment)
            orientd = harness
            try harness.waitUntilListening()
        case .iioSensorProxy:
            sensorProxy = try LineProcess(
                Self.sensorProxyDaemon, ["-v"], environment: environment, errorLog: folder + "/iio-sensor-proxy.log")
        }
        guard waitFor({ self.bus.property("HasAccelerometer") != nil }) else { throw HarnessError("\(daemon) did not start:\n\(log)") }
        monitor = try LineProcess(
            "/usr/bin/stdbuf",
            ["-oL", "/usr/bin/gdbus", "monitor", "--system", "--dest", "net.hadess.SensorProxy", "--object-path", driver.objectPath],
            environment: bus.environment)
        guard monitor.waitForLine({ $0.hasPrefix("Monitoring signals") }) != nil else { throw HarnessError("gdbus monitor did not start") }
    }

    var log: String {
        switch daemon {
        case .orientd: orientd?.log ?? ""
        case .iioSensorProxy: (try? String(contentsOfFile: folder + "/iio-sensor-proxy.log", encoding: .utf8)) ?? ""
        }
    }

    /// A D-Bus client (bus_client.py) that has claimed the sensor, printing the signals it hears; the bench's signals
    /// are its from now on.
    func claimant() throws -> LineProcess {
        let client = try LineProcess(UmockdevTestbed.python, [DBusFacadeTests.clientScript], environment: bus.environment)
        guard client.waitForLine({ $0.hasPrefix("ready ") }) != nil, client.ask("watch") == "ok" else {
            throw HarnessError("bus_client.py did not start")
        }
        lastClaimant = client
        // A buffered sensor gives its first reading, which the claim waits for, only when data comes.
        let answer = if let hid = currentHIDSensor, let raw = lastRaw.flatMap({ Int32($0) }) {
            hid.claim(driver.claimCommand, by: client, testbed, feeding: raw)
        } else {
            client.ask(driver.claimCommand)
        }
        guard answer == "ok" else { throw HarnessError("\(driver.claimCommand) failed: \(client.lines)") }
        return client
    }

    func release(_ client: LineProcess) throws {
        guard client.ask(driver.releaseCommand) == "ok" else { throw HarnessError("\(driver.releaseCommand) failed: \(client.lines)") }
    }

    // MARK: The emulated sensor

    /// Plugs the sensor in; a polled one reads `raw` from the start (a buffered one reads what ``reach(_:)`` feeds).
    func plug(_ raw: String) throws {
        plugs += 1
        lastRaw = raw
        if let hid = driver.hidSensor {
            let sensor = plugs == 1 ? hid : hid.replugged
            try sensor.add(to: testbed)
            sensorPath = sensor.sysfsPath
            return
        }
        switch driver {
        case .pollLight:
            sensorPath = try testbed.addDevice(
                "iio:device1", attributes: ["name": "als", driver.attribute: raw, "in_illuminance_scale": "0.5"],
                properties: ["IIO_SENSOR_PROXY_TYPE": driver.rawValue])
        case .pollProximity:
            sensorPath = try testbed.addDevice(
                "iio:device1", attributes: ["name": "prox", driver.attribute: raw, "in_proximity_nearlevel": "100"],
                properties: ["IIO_SENSOR_PROXY_TYPE": driver.rawValue])
        default:
            sensorPath = try testbed.addDevice(
                "applesmc.768", subsystem: "platform", attributes: ["name": "applesmc", driver.attribute: raw],
                properties: ["IIO_SENSOR_PROXY_TYPE": driver.rawValue])
        }
    }

    func unplug() throws {
        try testbed.remove(try #require(sensorPath))
        sensorPath = nil
    }

    /// The sensor now reads `raw`: a polled attribute changes; a buffered sensor gets one scan in its buffer.
    func change(_ raw: String) throws {
        lastRaw = raw
        if let node = currentHIDSensor?.node {
            try testbed.stream(node, scanHex: HIDSensor.scan(Int32(raw)!), count: 1, rate: 10)
        } else {
            try testbed.set(try #require(sensorPath), driver.attribute, raw)
        }
    }

    /// Waits until a client reads `reading` of the value property; a buffered sensor is sent a scan of the raw
    /// value every 0.25 s meanwhile, as the kernel delivers them. False when it does not within `timeout`.
    @discardableResult
    func reach(_ reading: (raw: String, reads: String), timeout: Double) -> Bool {
        waitFor(timeout: timeout, interval: 0.25) {
            if currentHIDSensor != nil { try? change(reading.raw) }
            return reads(reading.reads)
        }
    }

    /// Whether the value property reads `expected`, numbers to within a millionth (iio-sensor-proxy reads a HID
    /// scale as a 32-bit float: 50.0000007 where orientd reads 50).
    func reads(_ expected: String) -> Bool {
        HIDSensorTests.agree(property(driver.valueProperty), expected)
    }

    @discardableResult
    func waitForHas(_ present: Bool, timeout: Double = 5) -> Bool {
        waitFor(timeout: timeout) { self.property(self.driver.hasProperty) == (present ? "b true" : "b false") }
    }

    private var currentHIDSensor: HIDSensor? {
        guard let hid = driver.hidSensor, sensorPath != nil else { return nil }
        return plugs == 1 ? hid : hid.replugged
    }

    // MARK: What a client sees

    func property(_ name: String) -> String {
        bus.property(name, path: driver.objectPath, interface: driver.interface) ?? "unreadable"
    }

    /// Every property of the sensor, read in one busctl call (one line each).
    func properties() -> [SideBySideObservation.Entry] {
        let output = bus.busctl(["get-property", "net.hadess.SensorProxy", driver.objectPath, driver.interface] + driver.properties)
        let lines = output.stdout.split(separator: "\n").map(String.init)
        guard output.status == 0, lines.count == driver.properties.count else {
            return driver.properties.map { ($0, "unreadable") }
        }
        return Array(zip(driver.properties, lines)).map { (name: $0.0, value: $0.1) }
    }

    /// Where a step starts: who hears the signals, what they heard so far, and the sensor's properties then.
    struct Mark {
        let listener: ObjectIdentifier
        let line: Int
        let properties: [SideBySideObservation.Entry]
    }

    func mark() -> Mark {
        while signals.waitForLine(after: signals.lines.count, timeout: 0.01, { _ in true }) != nil {}
        return Mark(listener: ObjectIdentifier(signals), line: signals.lines.count, properties: properties())
    }

    /// The sensor's properties as a client reads them, and the PropertiesChanged signals of them since `start`.
    func observe(_ step: String, since mark: Mark) -> SideBySideObservation {
        // A claimant made during the step heard everything it heard in it.
        let start = Mark(listener: mark.listener, line: mark.listener == ObjectIdentifier(signals) ? mark.line : 0, properties: mark.properties)
        // A property that changed has a signal on its way: under load, the monitor may print it a while after
        // the property reads the new value.
        for ((name, now), (_, then)) in zip(properties(), start.properties) where !HIDSensorTests.agree(now, then) {
            _ = signals.waitForLine(after: start.line, timeout: 3) { $0.contains("'\(name)': <") }
        }
        while signals.waitForLine(after: signals.lines.count, timeout: 0.3, { _ in true }) != nil {}
        let published = signals.lines[start.line...].filter { $0.contains("PropertiesChanged") }.map { line in
            // A signal carries a dictionary: the order of its entries says nothing.
            line.matches(of: #/'(\w+)': <([^>]*)>/#).map { (name: String($0.1), value: String($0.2)) }
                .filter { driver.properties.contains($0.name) }.sorted { $0.name < $1.name }
        }.filter { !$0.isEmpty }
        return SideBySideObservation(step: step, properties: properties(), published: published)
    }

    deinit {
        monitor?.kill()
        orientd = nil
        sensorProxy?.kill()
        bus.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// What a D-Bus client saw after one step of the script: the sensor's properties, and what each PropertiesChanged
/// signal of them carried meanwhile, in order.
struct SideBySideObservation: CustomStringConvertible {
    typealias Entry = (name: String, value: String)
    let step: String
    let properties: [Entry]
    let published: [[Entry]]

    func property(_ name: String) -> String? { properties.first { $0.name == name }?.value }

    /// The values published of one property, in order.
    func published(_ name: String) -> [String] { published.joined().filter { $0.name == name }.map(\.value) }

    /// What a client following the signals ends up with: the properties, and the last value published of each.
    var outcome: String {
        let last = properties.map { property in "\(property.name) \(published(property.name).last ?? "none")" }
        return "\(step) : " + (properties.map { "\($0.name) \($0.value)" } + last).joined(separator: " | ")
    }

    /// One line, words separated by spaces so that numbers compare on their own.
    var description: String {
        let read = properties.map { "\($0.name) \($0.value)" }.joined(separator: " | ")
        let sent = published.map { "{ " + $0.map { "\($0.name) \($0.value)" }.joined(separator: " ") + " }" }
        return "\(step) : \(read) || published: " + sent.joined(separator: " ")
    }
}
