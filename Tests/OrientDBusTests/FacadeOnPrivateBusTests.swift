import Foundation
import Glibc
import Logging
import OrientCore
import OrientDBus
import OrientSampleSource
import OrientTestSupport
import Synchronization
import Testing

/// The programs the in-process facade tests run.
enum BusTools {
    static let present = ["/usr/bin/dbus-daemon", "/usr/bin/busctl", "/usr/bin/gdbus", "/usr/bin/python3"]
        .allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
        && FileManager.default.fileExists(atPath: PolkitMock.dbusmockTemplate)
}

/// The facade in this process, on a dbus-daemon of the test's own: what a real client reads, claims and is told.
@Suite(
    "The D-Bus facade in-process, on a private bus", .serialized,
    .enabled(if: BusTools.present, "needs dbus-daemon, busctl, gdbus, python3-gi and python3-dbusmock"))
struct FacadeOnPrivateBusTests {
    /// A GIO client that claims and releases on command (the daemon's tests use it too).
    static let busClient = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../OrientdTests/Fixtures/bus_client.py").standardized.path

    /// A program whose output lines are kept as they come.
    final class LineProcess: @unchecked Sendable {
        let process = Process()
        private let input = Pipe()
        private let received = Lines()

        final class Lines: Sendable {
            let value = Mutex<[String]>([])
        }

        init(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws {
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let output = Pipe()
            process.standardOutput = output
            process.standardInput = input
            process.standardError = FileHandle.nullDevice
            try process.run()
            let received = self.received
            Thread.detachNewThread {
                var buffer = Data()
                while case let data = output.fileHandleForReading.availableData, !data.isEmpty {
                    buffer.append(data)
                    while let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                        let line = String(decoding: buffer[buffer.startIndex..<end], as: UTF8.self)
                        buffer.removeSubrange(buffer.startIndex...end)
                        received.value.withLock { $0.append(line) }
                    }
                }
            }
        }

        var lines: [String] { received.value.withLock { $0 } }

        func send(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

        /// The first line from `start` on that passes `test`, waiting up to 10 s.
        func line(after start: Int = 0, _ test: (String) -> Bool) -> String? {
            for _ in 0..<1000 {
                if let found = lines.dropFirst(start).first(where: test) { return found }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return nil
        }

        /// SIGKILL: the test runner's children may inherit SIGTERM ignored.
        func kill() {
            if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }

        deinit { kill() }
    }

    /// A dbus-daemon that lets anyone own and call anything, with python-dbusmock's polkitd (allowing the sensor
    /// claims) D-Bus activated at the first question.
    final class Bus {
        let folder = NSTemporaryDirectory() + "orientd-facade-\(UUID().uuidString.prefix(8))"
        var address: String { "unix:path=\(folder)/bus" }
        private var daemon: LineProcess?

        /// - Parameter polkit: whether polkit can be activated; without it every claim is refused.
        init(polkit: Bool = true) throws {
            let services = try PolkitMock.serviceFolder(in: folder, busAddress: address)
            try """
                <busconfig><type>system</type><listen>\(address)</listen><auth>EXTERNAL</auth>
                \(polkit ? "<servicedir>\(services)</servicedir>" : "")
                <policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*"/>
                <allow send_type="method_call"/><allow receive_sender="*"/></policy></busconfig>
                """.write(toFile: folder + "/bus.conf", atomically: true, encoding: .utf8)
            daemon = try LineProcess("/usr/bin/dbus-daemon", ["--nofork", "--config-file", folder + "/bus.conf"])
            for _ in 0..<500 where !FileManager.default.fileExists(atPath: folder + "/bus") {
                Thread.sleep(forTimeInterval: 0.01)
            }
        }

        /// Calls python-dbusmock's polkitd mock interface (`SetAllowed as 0`, `SimulateHang b true`), activating it.
        func polkitMock(_ arguments: [String]) throws {
            let busctl = Process()
            busctl.executableURL = URL(fileURLWithPath: "/usr/bin/busctl")
            busctl.arguments = ["--address=\(address)", "call", "org.freedesktop.PolicyKit1", "/org/freedesktop/PolicyKit1/Authority",
                                "org.freedesktop.DBus.Mock"] + arguments
            try busctl.run()
            busctl.waitUntilExit()
            guard busctl.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
        }

        /// A property of the main object as busctl prints it (`b true`, `d 40`), or nil.
        func property(_ name: String, path: String = "/net/hadess/SensorProxy", interface: String = "net.hadess.SensorProxy") -> String? {
            let busctl = Process()
            busctl.executableURL = URL(fileURLWithPath: "/usr/bin/busctl")
            busctl.arguments = ["--address=\(address)", "get-property", "net.hadess.SensorProxy", path, interface, name]
            let output = Pipe()
            busctl.standardOutput = output
            busctl.standardError = FileHandle.nullDevice
            guard (try? busctl.run()) != nil else { return nil }
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            busctl.waitUntilExit()
            return busctl.terminationStatus == 0 ? text.trimmingCharacters(in: .whitespacesAndNewlines) : nil
        }

        deinit {
            daemon = nil
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// A facade serving on a bus in a task of its own, the claim counts it reports kept in order ("light 1"), and
    /// "name" each time it says it has asked for its name.
    final class ServedFacade {
        let facade: SensorProxyService
        let serving: Task<Void, Never>
        private let reported = LineProcess.Lines()

        init(on bus: Bus, claimBound: Double = ClaimAnswers.defaultBound) throws {
            let reported = self.reported
            facade = try SensorProxyService(
                busAddress: bus.address, claimBound: claimBound, logger: Logger(label: "test"),
                nameRequested: { reported.value.withLock { $0.append("name") } }
            ) { kind, count in reported.value.withLock { $0.append("\(kind.rawValue) \(count)") } }
            let facade = self.facade
            serving = Task { await facade.run() }
        }

        var claims: [String] { reported.value.withLock { $0.filter { $0 != "name" } } }
        var namesRequested: Int { reported.value.withLock { $0.filter { $0 == "name" }.count } }

        deinit { serving.cancel() }
    }

    /// bus_client.py on `bus`, once it says it is ready.
    static func client(on bus: Bus) throws -> LineProcess {
        let client = try LineProcess("/usr/bin/python3", [busClient], environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        guard client.line({ $0.hasPrefix("ready") }) != nil else { throw CocoaError(.executableLoad) }
        return client
    }

    /// Both sensors plugged in and read since they started.
    static let present = SensorSnapshot(sensors: [
        .accelerometer: .init(present: true, last: .orientation(.init(device: .portrait, tilt: .vertical)), readSinceStart: true, firstReadings: 1),
        .light: .init(present: true, last: .reading(.light(level: 40, unit: .lux)), readSinceStart: true, firstReadings: 1),
    ])

    private func waitFor(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<1000 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @Test("Reads follow the snapshot; claims are counted per kind and per client; a change is signalled; it stops when cancelled")
    func serves() async throws {
        let bus = try Bus()
        let served = try ServedFacade(on: bus)
        let facade = served.facade
        let serving = served.serving
        #expect(bus.property("HasAccelerometer") == nil, "no name before the sensors' presence is known")
        #expect(served.namesRequested == 0, "start-up is not over before the name is asked for")
        facade.update(Self.present)
        #expect(await waitFor { bus.property("LightLevel") == "d 40" })
        #expect(served.namesRequested == 1, "the daemon hears once that the facade has started")
        #expect(bus.property("AccelerometerOrientation") == "s \"normal\"")
        #expect(bus.property("HasProximity") == "b false", "a kind not served")
        #expect(bus.property("HasCompass", path: "/net/hadess/SensorProxy/Compass", interface: "net.hadess.SensorProxy.Compass") == "b false")

        // A client that claims nothing, with a match rule for every signal the facade sends: it hears no reading.
        let signals = try LineProcess(
            "/usr/bin/gdbus", ["monitor", "--address", bus.address, "--dest", "net.hadess.SensorProxy"])
        #expect(signals.line { $0.hasPrefix("Monitoring signals") } != nil)
        let client = try Self.client(on: bus)
        client.send("watch")
        client.send("claim-light")
        #expect(client.line { $0 == "ok" } != nil)
        #expect(client.line(after: client.lines.firstIndex(of: "ok")! + 1) { $0 == "ok" } != nil, "a sensor read since it started: answered at once")
        #expect(await waitFor { served.claims == ["light 1"] })
        client.send("claim-light")
        #expect(await waitFor { client.lines.filter { $0 == "ok" }.count == 3 })
        #expect(served.claims == ["light 1"], "a repeated claim is one claim")

        var brighter = Self.present
        brighter.sensors[.light]?.last = .reading(.light(level: 55, unit: .lux))
        facade.update(brighter)
        let heard = client.line { $0.hasPrefix("signal ") }
        #expect(heard?.hasPrefix("signal /net/hadess/SensorProxy: org.freedesktop.DBus.Properties.PropertiesChanged ('net.hadess.SensorProxy', {") == true
                    && heard?.contains("'LightLevel': <55.0>") == true && heard?.contains("'LightLevelUnit': <'lux'>") == true, "\(client.lines)")
        var turned = brighter
        turned.orientation?.device = .landscapeLeft
        facade.update(turned)
        #expect(await waitFor { bus.property("AccelerometerOrientation") == "s \"right-up\"" })
        client.send("release-light")
        #expect(await waitFor { served.claims == ["light 1", "light 0"] })
        var dimmer = turned
        dimmer.sensors[.light]?.last = .reading(.light(level: 5, unit: .lux))
        facade.update(dimmer)
        #expect(await waitFor { bus.property("LightLevel") == "d 5" })
        usleep(300_000)
        #expect(client.lines.filter { $0.hasPrefix("signal ") }.count == 1,
                "the claimant heard its kind's change only, and nothing after its release: \(client.lines)")
        #expect(!signals.lines.contains { $0.contains("PropertiesChanged") }, "a client that did not claim heard: \(signals.lines)")

        client.send("claim-proximity")
        #expect(await waitFor { served.claims.last == "proximity 1" })
        client.kill()
        #expect(await waitFor { served.claims.last == "proximity 0" }, "a claimant leaving the bus releases")

        serving.cancel()
        await serving.value
        #expect(await waitFor { bus.property("HasAccelerometer") == nil }, "off the bus once stopped")
    }

    @Test("Claims are per client: the kind stays claimed while one claimant is left, and is released when the last leaves the bus; releasing with no claim succeeds")
    func claimsPerClient() async throws {
        let bus = try Bus()
        let served = try ServedFacade(on: bus)
        served.facade.update(Self.present)
        #expect(await waitFor { bus.property("HasAmbientLight") == "b true" })
        let first = try Self.client(on: bus)
        let second = try Self.client(on: bus)
        for client in [first, second] {
            client.send("claim-light")
            #expect(client.line { $0 == "ok" } != nil, "\(client.lines)")
        }
        #expect(await waitFor { served.claims == ["light 1"] })
        first.kill()
        usleep(300_000)
        #expect(served.claims == ["light 1"], "still claimed by the second client")
        second.kill()
        #expect(await waitFor { served.claims == ["light 1", "light 0"] }, "the last claimant left the bus")
        let bystander = try Self.client(on: bus)
        bystander.send("release-light")
        #expect(bystander.line { $0 == "ok" } != nil, "\(bystander.lines)")
        #expect(served.claims == ["light 1", "light 0"])
    }

    @Test("A client that read the properties before a change it was not told of is told it when it claims; one that reads after is told nothing")
    func claimantCaughtUp() async throws {
        let bus = try Bus()
        let served = try ServedFacade(on: bus)
        let facade = served.facade
        // Plugged in, not read yet.
        let unread = SensorSnapshot(sensors: [.accelerometer: .init(present: true)])
        facade.update(unread)
        #expect(await waitFor { bus.property("AccelerometerOrientation") == "s \"undefined\"" })
        let early = try Self.client(on: bus)
        early.send("watch")
        early.send("get-all")
        #expect(early.line { $0.hasPrefix("values") }?.contains("'AccelerometerOrientation': <'undefined'>") == true, "\(early.lines)")
        // The sensor is read for someone else (a socket client): the change goes to no claimant.
        facade.update(Self.present)
        #expect(await waitFor { bus.property("AccelerometerOrientation") == "s \"normal\"" })
        let late = try Self.client(on: bus)
        late.send("watch")
        late.send("get-all")
        #expect(late.line { $0.hasPrefix("values") }?.contains("'AccelerometerOrientation': <'normal'>") == true, "\(late.lines)")

        early.send("claim")
        let told = early.line { $0.hasPrefix("signal ") }
        #expect(told?.contains("{'AccelerometerOrientation': <'normal'>, 'AccelerometerTilt': <'vertical'>}") == true, "\(early.lines)")
        #expect(early.line { $0 == "ok" } != nil)
        late.send("claim")
        #expect(late.line { $0 == "ok" } != nil)
        usleep(300_000)
        #expect(!late.lines.contains { $0.hasPrefix("signal ") }, "it read the current values: \(late.lines)")
        #expect(early.lines.filter { $0.hasPrefix("signal ") }.count == 1, "told once: \(early.lines)")
    }

    @Test("A claim of a sensor not read since it started is answered at its first reading, which it then reads; unplugged meanwhile, it fails")
    func claimWaitsForReading() async throws {
        let bus = try Bus()
        // A bound no busy machine reaches: a claim answered while the test looks is answered for its reading.
        let served = try ServedFacade(on: bus, claimBound: 600)
        let facade = served.facade
        var idle = Self.present
        idle.sensors[.light] = .init(present: true, last: .reading(.light(level: 40, unit: .lux)), readSinceStart: false, firstReadings: 1)
        facade.update(idle)
        #expect(await waitFor { bus.property("LightLevel") == "d 40" })
        let client = try Self.client(on: bus)
        var start = client.lines.count
        client.send("claim-light")
        // Blocking, not Task.sleep: a suspended test may resume seconds later on a machine whose cooperative
        // threads are busy with other suites, and the client's call would time out first.
        usleep(500_000)
        #expect(client.lines.count == start, "answered before a reading: \(client.lines)")
        var read = idle
        read.sensors[.light] = .init(present: true, last: .reading(.light(level: 70, unit: .lux)), readSinceStart: true, firstReadings: 2)
        facade.update(read)
        #expect(client.line(after: start) { $0 == "ok" } != nil)
        #expect(bus.property("LightLevel") == "d 70", "the claim reads the reading it waited for")

        // The last claimant goes, and the sensor has not said it stopped: its last reading does not answer a new claim.
        client.send("release-light")
        #expect(client.line(after: start + 1) { $0 == "ok" } != nil)
        start = client.lines.count
        client.send("claim-light")
        usleep(300_000)
        #expect(client.lines.count == start, "answered from the reading before the release: \(client.lines)")
        var unplugged = read
        unplugged.sensors[.light] = .init(present: false, readSinceStart: false, firstReadings: 2)
        facade.update(unplugged)
        let failed = client.line(after: start) { $0.hasPrefix("error") }
        #expect(failed?.contains("Sensor removed while waiting for it to start up") == true, "\(client.lines)")

        // With no sensor plugged in, a claim is answered at once (it takes effect when one appears).
        start = client.lines.count
        client.send("claim-proximity")
        #expect(client.line(after: start) { $0 == "ok" } != nil)
    }

    @Test("polkit refusing a claim: iio-sensor-proxy's error, and no sensor is wanted; allowed again, the claim succeeds")
    func polkitRefuses() async throws {
        let bus = try Bus()
        let served = try ServedFacade(on: bus)
        let facade = served.facade
        facade.update(Self.present)
        #expect(await waitFor { bus.property("HasAccelerometer") != nil })
        try bus.polkitMock(["SetAllowed", "as", "0"])
        let client = try Self.client(on: bus)
        client.send("claim-light")
        let refused = client.line { $0.hasPrefix("error") }
        #expect(refused?.contains("org.freedesktop.DBus.Error.AccessDenied: Not Authorized: Sensor claim not allowed") == true, "\(client.lines)")
        usleep(200_000)
        #expect(served.claims.isEmpty, "a refused claim starts no sensor")
        try bus.polkitMock(["SetAllowed", "as", "1", "net.hadess.SensorProxy.claim-sensor"])
        client.send("claim-light")
        #expect(client.line { $0 == "ok" } != nil, "\(client.lines)")
        #expect(served.claims == ["light 1"])
    }

    @Test("No polkit on the bus: every claim is refused, as iio-sensor-proxy refuses it; properties are still read")
    func noPolkit() async throws {
        let bus = try Bus(polkit: false)
        let served = try ServedFacade(on: bus)
        let facade = served.facade
        facade.update(Self.present)
        #expect(await waitFor { bus.property("HasAccelerometer") != nil })
        let client = try Self.client(on: bus)
        client.send("claim")
        let refused = client.line { $0.hasPrefix("error") }
        #expect(refused?.contains("AccessDenied: Not Authorized: ") == true && refused?.contains("PolicyKit1") == true, "\(client.lines)")
        #expect(bus.property("AccelerometerOrientation") == "s \"normal\"")
        #expect(served.claims.isEmpty)
    }

    @Test("polkit that does not answer: the claim is refused after 5 s, and meanwhile the facade answers everyone else")
    func polkitHangs() async throws {
        let bus = try Bus()
        let served = try ServedFacade(on: bus)
        let facade = served.facade
        facade.update(Self.present)
        #expect(await waitFor { bus.property("HasAccelerometer") != nil })
        try bus.polkitMock(["SimulateHang", "b", "true"])
        let client = try Self.client(on: bus)
        let asked = Date()
        client.send("claim-light")
        usleep(500_000)
        #expect(bus.property("LightLevel") == "d 40", "read while polkit thinks")
        #expect(client.lines.count == 1, "\(client.lines)")
        let refused = client.line { $0.hasPrefix("error") }
        #expect(refused?.contains("AccessDenied: Not Authorized: ") == true, "\(client.lines)")
        #expect(Date().timeIntervalSince(asked) >= 4.5)
    }
}
