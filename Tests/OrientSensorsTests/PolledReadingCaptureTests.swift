import Foundation
import Logging
import OrientSampleSource
@testable import OrientSensors
import Synchronization
import Testing

/// A polled one-value sensor's capture in the test's own process: its thread, hot-plug and faults, on devices in a
/// folder that the test adds, changes and takes away (``FolderDeviceDirectory``). A light sensor that asks to be
/// read every 20 ms (its integration time) keeps each test short.
@Suite("Polled sensor capture, in process")
struct PolledReadingCaptureTests {
    /// A light sensor read every 20 ms: raw 40 × scale 0.5 = 20 lux.
    static let light = [
        "in_illuminance_raw": "40", "in_illuminance_scale": "0.5", "in_illuminance_integration_time": "0.02",
    ]

    let directory: FolderDeviceDirectory
    let events = EventLog<ReadingEvent>()
    let log = RecordingLog()

    init() throws { directory = try FolderDeviceDirectory() }

    private func startLight() -> CaptureHandle {
        let source = PolledReadingSource([IIOPolledLight.self], directory: directory, logger: log.logger)
        let events = self.events
        return source.start { events.append($0) }
    }

    /// A light sensor at iio:device3, its capture started and its first reading, 20 lux, in.
    private func lightRead() async throws -> (device: IIODeviceFacts, handle: CaptureHandle) {
        let device = try directory.add("iio:device3", attributes: Self.light)
        let handle = startLight()
        #expect(await events.first { $0 == .reading(.light(level: 20, unit: .lux)) } != nil)
        return (device, handle)
    }

    @Test("An interval in the source's settings replaces the driver's from the open on, and one set while it reads applies from the next read")
    func intervalFromSettings() async throws {
        try directory.add("iio:device3", name: "als", attributes: Self.light)
        let settings = LiveSettings(SourceSettings(interval: 30))
        let source = PolledReadingSource([IIOPolledLight.self], directory: directory, logger: log.logger)
        let events = self.events
        let asked = Mutex(false)
        // At the first reading, a reload sets 20 ms and the consumer asks for the next read now (as the light filter
        // asks): that read is the last one on the old 30 s schedule.
        let handle = source.start(settings) { event in
            events.append(event)
            guard case .reading = event, !asked.withLock({ asked in defer { asked = true }; return asked }) else {
                return .onSchedule
            }
            settings.set(SourceSettings(interval: 0.02))
            return .within(seconds: 0)
        }
        let opened = try #require(await events.first { if case .opened = $0 { true } else { false } })
        guard case .opened(let description) = opened else { return }
        #expect(description.interval == 30)
        #expect(log.contains("light sensor als (iio:device3): found by channel in_illuminance_raw; read every 30.0 s"))
        let twenty = ReadingEvent.reading(.light(level: 20, unit: .lux))
        #expect(await events.first(after: twenty) { $0 == twenty } != nil, "the reading asked for at once")
        try directory.set("in_illuminance_raw", of: "iio:device3", to: "90")
        #expect(await events.first { $0 == .reading(.light(level: 45, unit: .lux)) } != nil, "read on the new interval")
        await handle.stop()
    }

    @Test("Opens the device a driver offers, says how it was found and how often it is read, and reads it that often")
    func opensAndReads() async throws {
        try directory.add("iio:device3", name: "als", attributes: Self.light)
        let handle = startLight()
        let opened = try #require(await events.first { if case .opened = $0 { true } else { false } })
        guard case .opened(let description) = opened else { return }
        #expect(description.id == "iio:device3" && description.name == "als")
        #expect(description.foundBy == "channel in_illuminance_raw" && description.interval == 0.02)
        #expect(await events.first { $0 == .reading(.light(level: 20, unit: .lux)) } != nil)
        try directory.set("in_illuminance_raw", of: "iio:device3", to: "90")
        #expect(await events.first { $0 == .reading(.light(level: 45, unit: .lux)) } != nil, "read anew at each interval")
        #expect(log.contains("light sensor als (iio:device3): found by channel in_illuminance_raw; read every 0.02 s"))
        await handle.stop()
        #expect(directory.subscribers == 0, "a stopped capture listens to udev no more")
    }

    @Test("None there: no sensor, said once however many other devices come; one added later is opened and read")
    func waitsForOne() async throws {
        let handle = startLight()
        #expect(await events.first { $0 == .noSensor(reason: "no light sensor found") } != nil)
        try directory.add("iio:device0", name: "accel", attributes: ["in_accel_x_raw": "0"])
        try directory.add("iio:device1", name: "accel", attributes: ["in_accel_y_raw": "0"])
        try directory.add("iio:device2", subsystem: "input", attributes: [:])
        try directory.add("iio:device5", attributes: Self.light)
        #expect(await events.first { $0 == .reading(.light(level: 20, unit: .lux)) } != nil)
        #expect(events.count { if case .noSensor = $0 { true } else { false } } == 1)
        await handle.stop()
    }

    @Test("A value that is not a number: one incident naming the file, nothing read meanwhile; a number again reads again")
    func notANumber() async throws {
        let (device, handle) = try await lightRead()
        try directory.set("in_illuminance_raw", of: "iio:device3", to: "xyz")
        let problem = "light sensor iio:device3: \(device.attributePath("in_illuminance_raw")) reads \"xyz\", not a number"
        #expect(await events.first { $0 == .incident(problem) } != nil)
        let readings = events.count { if case .reading = $0 { true } else { false } }
        // Ten intervals of the same bad value.
        try await Task.sleep(for: .milliseconds(200))
        #expect(events.count { $0 == .incident(problem) } == 1, "said once, not at every read")
        #expect(events.count { if case .reading = $0 { true } else { false } } == readings, "the last reading stands")
        try directory.set("in_illuminance_raw", of: "iio:device3", to: "60")
        #expect(await events.first { $0 == .incident("light sensor iio:device3 reads again") } != nil)
        #expect(await events.first { $0 == .reading(.light(level: 30, unit: .lux)) } != nil)
        #expect(log.count { $0.contains("not a number") } == 1)
        await handle.stop()
    }

    @Test("Its folder gone mid-read: lost, naming the file; not retried until udev says something; then read again")
    func vanishes() async throws {
        let (device, handle) = try await lightRead()
        try directory.removeFolder(of: "iio:device3")
        let lost = try #require(await events.first { if case .lost = $0 { true } else { false } })
        guard case .lost(let reason) = lost else { return }
        #expect(reason.contains(device.attributePath("in_illuminance_raw")) && reason.contains("errno 2"))
        try await Task.sleep(for: .milliseconds(100))
        #expect(events.last == lost, "no open retried in a loop while udev is silent")
        directory.remove("iio:device3")
        #expect(await events.first { $0 == .noSensor(reason: "no light sensor found") } != nil)
        try directory.add("iio:device3", attributes: Self.light)
        #expect(await events.first(after: lost) { if case .opened = $0 { true } else { false } } != nil)
        #expect(await events.first(after: lost) { $0 == .reading(.light(level: 20, unit: .lux)) } != nil)
        let file = device.attributePath("in_illuminance_raw")
        #expect(log.count { $0.hasPrefix("light sensor lost: \(file): read failed: No such file or directory") } == 1, "said once")
        await handle.stop()
    }

    @Test("applesmc's light, a platform device: one plugged in while none is there is opened and read, in vendor; unplugged, lost; plugged back, read again")
    func platformHotPlug() async throws {
        let source = PolledReadingSource([IIOPolledLight.self, HwmonLight.self], directory: directory, logger: log.logger)
        let events = self.events
        let handle = source.start(LiveSettings(SourceSettings(interval: 0.02))) { events.append($0); return .onSchedule }
        #expect(await events.first { $0 == .noSensor(reason: "no light sensor found") } != nil)
        try directory.add("applesmc.768", subsystem: "platform", name: "applesmc", attributes: ["light": "(51,10)"])
        #expect(await events.first { $0 == .reading(.light(level: 20, unit: .vendor)) } != nil)
        directory.remove("applesmc.768")
        let lost = ReadingEvent.lost(reason: "applesmc.768 was removed")
        #expect(await events.first { $0 == lost } != nil)
        try directory.add("applesmc.768", subsystem: "platform", name: "applesmc", attributes: ["light": "(255,0)"])
        #expect(await events.first(after: lost) { $0 == .reading(.light(level: 100, unit: .vendor)) } != nil)
        #expect(log.contains("light sensor applesmc (applesmc.768): found by applesmc's attribute light; read every 0.02 s"))
        await handle.stop()
    }

    @Test("udev's remove of the open sensor: lost, though its folder lingers, and not found again until udev adds it back")
    func removedWhileItsFolderLingers() async throws {
        let (device, handle) = try await lightRead()
        directory.remove("iio:device3")
        let lost = ReadingEvent.lost(reason: "iio:device3 was removed")
        #expect(await events.first { $0 == lost } != nil)
        #expect(await events.first(after: lost) { $0 == .noSensor(reason: "no light sensor found") } != nil)
        directory.readd(device)
        #expect(await events.first(after: lost) { $0 == .reading(.light(level: 20, unit: .lux)) } != nil)
        await handle.stop()
    }

    @Test("A light sensor's scale of 0 counts as 1, said once in the log naming the file")
    func scaleOfZero() async throws {
        var attributes = Self.light
        attributes["in_illuminance_scale"] = "0"
        let device = try directory.add("iio:device3", attributes: attributes)
        let handle = startLight()
        #expect(await events.first { $0 == .reading(.light(level: 40, unit: .lux)) } != nil)
        #expect(log.count { $0.contains("\(device.attributePath("in_illuminance_scale")) reads 0; using 1") } == 1)
        await handle.stop()
    }

    @Test("Presence without opening: a proximity sensor with no near level is absent, said once; one with a level is present")
    func presence() async throws {
        let source = PolledReadingSource([IIOPolledProximity.self], directory: directory, logger: log.logger)
        var presence = source.presence().makeAsyncIterator()
        #expect(await presence.next() == false)
        try directory.add("iio:device4", attributes: ["in_proximity_raw": "10"])
        try directory.add("iio:device1", attributes: ["in_accel_x_raw": "0"])
        try directory.add("iio:device6", attributes: ["in_proximity_raw": "10", "in_proximity_nearlevel": "200"])
        #expect(await presence.next() == true)
        #expect(log.count { $0.contains("proximity sensor iio:device4 is not offered") } == 1, "said once, not at every event")
        directory.remove("iio:device6")
        #expect(await presence.next() == false)
        #expect(events.isEmpty, "nothing was opened")
    }
}

/// What a capture delivered, in order, from its thread; tests wait for what they expect.
final class EventLog<Event: Equatable & Sendable>: Sendable {
    private let events = Mutex<[Event]>([])

    func append(_ event: Event) { events.withLock { $0.append(event) } }

    var isEmpty: Bool { events.withLock { $0.isEmpty } }
    var last: Event? { events.withLock { $0.last } }
    var all: [Event] { events.withLock { $0 } }
    var count: Int { events.withLock { $0.count } }

    func count(where matches: (Event) -> Bool) -> Int { events.withLock { $0.filter(matches).count } }

    /// The first event that matches, waiting up to 5 s for it: long enough for a busy machine, and a failing test
    /// says what it saw. With `after`, only events after the first that equals it; with `from`, only those from that
    /// index on (``count`` at some point).
    func first(
        after: Event? = nil, from index: Int = 0, within seconds: Double = 5, where matches: (Event) -> Bool
    ) async -> Event? {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while true {
            let found: Event? = events.withLock { events in
                let start = after.flatMap { events.firstIndex(of: $0).map { $0 + 1 } } ?? (after == nil ? 0 : events.count)
                return events[min(max(start, index), events.count)...].first(where: matches)
            }
            if let found { return found }
            if ContinuousClock.now >= deadline {
                Issue.record("waited \(seconds) s; the capture delivered \(events.withLock { $0 })")
                return nil
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// A logger whose lines the test reads back.
final class RecordingLog: Sendable {
    private let lines = Mutex<[String]>([])

    var logger: Logger {
        Logger(label: "test") { _ in Handler(log: self) }
    }

    func contains(_ line: String) -> Bool { lines.withLock { $0.contains(line) } }

    func contains(where matches: (String) -> Bool) -> Bool { lines.withLock { $0.contains(where: matches) } }

    /// Every line so far, in order.
    var all: [String] { lines.withLock { $0 } }

    func count(where matches: (String) -> Bool) -> Int { lines.withLock { $0.filter(matches).count } }

    fileprivate func append(_ line: String) { lines.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let log: RecordingLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) { log.append("\(event.message)") }
    }
}
