import OrientCore
import OrientProtocol
import OrientSampleSource
import OrientServer
import Testing

/// Light and proximity through the publisher: per-subscriber events, what the demand is told, `get` waiting for a
/// reading, and `status`.
@Suite("Readings on the socket")
struct PublishedReadingsTests {
    /// A publisher serving light, proximity and the compass, whose time limits run when the test says, recording
    /// what it tells the demand.
    final class Harness {
        let clock = ManualClock()
        private(set) var demands: [SocketDemand] = []
        /// The readers of each kind the demand was last told.
        var readers: [SensorKind: Int]? { demands.last?.readers }
        private(set) lazy var publisher = Publisher(
            settings: .init(), persistent: PersistentState(), version: "test", readingKinds: [.light, .proximity, .compass],
            dependencies: .init(clock: clock) { [unowned self] in demands.append($0) })

        static let als = ReadingSensorDescription(
            kind: .light, id: "iio:device1", name: "als", interval: 0.8, foundBy: "IIO_SENSOR_PROXY_TYPE iio-poll-als")

        func light(_ level: Double) { publisher.take(.read(.light(level: level, unit: .lux)), of: .light) }

        /// The light sensor plugged in, opened as ``als`` and read once at `level` lux.
        func lightOpen(reading level: Double) {
            publisher.take(.present(true), of: .light)
            publisher.take(.started, of: .light)
            publisher.take(.opened(Self.als), of: .light)
            light(level)
        }

        /// The accelerometer open and committed: `get` waits for nothing of it.
        func orientationFresh() {
            publisher.take(.accelerometerOpened(.init(id: "t", name: "t", mode: .replay)), of: .accelerometer)
            publisher.deviceChanged(.portrait, time: 1)
        }
    }

    static let fifty = ReadingState(kind: .light, present: true, value: .light(level: 50, unit: .lux))

    @Test("Only a subscriber that asked for light gets light events; the other's lines are the orientation's alone, byte for byte")
    func perSubscriber() {
        let h = Harness()
        let asks = RecordingSink()
        let plain = RecordingSink()
        let alone = RecordingSink()
        _ = h.publisher.subscribe(alone, settings: SubscriptionSettings(), id: .number(1))
        _ = h.publisher.subscribe(asks, settings: SubscriptionSettings(), readings: [.light], id: .number(1))
        _ = h.publisher.subscribe(plain, settings: SubscriptionSettings(), id: .number(1))
        #expect(h.readers == [.light: 1], "the demand is told: one socket client wants light")
        h.lightOpen(reading: 50)
        h.orientationFresh()
        h.publisher.take(.read(.proximity(near: true)), of: .proximity)
        // The accelerometer's opening and its first commit are two orientation events.
        #expect(asks.events.map(\.event) == ["light", "light", "orientation", "orientation"], "present (not read yet), then 50 lux: \(asks.lines)")
        #expect(asks.events[1] == .reading(Self.fifty))
        #expect(plain.lines == alone.lines, "a subscriber that did not ask sees what it saw before readings existed")
        #expect(plain.events.map(\.event) == ["orientation", "orientation"])
    }

    @Test("A new subscriber that asks gets the last level at once after its reply; one that asks again with none stops getting them")
    func lastLevelAtOnce() {
        let h = Harness()
        h.publisher.take(.present(true), of: .light)
        h.light(50)
        h.publisher.take(.stopped, of: .light)
        let late = RecordingSink()
        let lines = h.publisher.subscribe(late, settings: SubscriptionSettings(), readings: [.light, .proximity], id: .number(2))
            .split(separator: "\n").map { try! ServerMessage.decode(Array($0.utf8)) }
        #expect(lines.count == 2, "the proximity sensor is not known yet: nothing said of it")
        #expect(lines[0].id == .number(2) && lines[1] == .reading(Self.fifty))
        h.light(50)
        #expect(late.lines.isEmpty, "the same level again is no news")
        _ = h.publisher.subscribe(late, settings: SubscriptionSettings(), id: .number(3))
        #expect(h.readers == [:])
        h.light(80)
        #expect(late.lines.isEmpty)
    }

    @Test("A sensor lost or absent is an event: present false, no level; the level is not kept for when it comes back")
    func lostAndBack() {
        let h = Harness()
        let sink = RecordingSink()
        _ = h.publisher.subscribe(sink, settings: SubscriptionSettings(), readings: [.light], id: nil)
        h.light(50)
        h.publisher.take(.lost(reason: "unplugged"), of: .light)
        h.publisher.take(.present(false), of: .light)
        h.publisher.take(.present(true), of: .light)
        h.light(20)
        #expect(sink.events.map { $0.reading(.light) } == [
            Self.fifty, ReadingState(kind: .light, present: false), ReadingState(kind: .light, present: true),
            ReadingState(kind: .light, present: true, value: .light(level: 20, unit: .lux)),
        ])
    }

    @Test("get --light with the sensor closed waits for its first reading as for the orientation, then lets it close")
    func getWaitsForReading() throws {
        let h = Harness()
        h.orientationFresh()
        h.publisher.take(.present(true), of: .light)
        h.light(12)
        h.publisher.take(.stopped, of: .light)
        let sink = RecordingSink()
        #expect(h.publisher.get(nil, readings: [.light], from: sink, id: .number(1)) == nil, "the level from before is not fresh")
        #expect(h.readers == [.light: 1], "the waiting get opens the light sensor")
        h.publisher.take(.started, of: .light)
        h.publisher.take(.opened(Harness.als), of: .light)
        #expect(sink.lines.isEmpty, "opened is not read")
        h.light(50)
        let reply = try #require(sink.messages.first)
        #expect(reply.reading(.light) == Self.fifty && reply.fresh == true && reply.device == "portrait")
        #expect(h.readers == [:], "answered: the light sensor may close")
        #expect(h.publisher.get(nil, from: RecordingSink(), id: .number(2))?.contains(#""light""#) == false, "a get without asks as before")
    }

    @Test("get --light with no light sensor: answered once the source says none, not present; at the time limit, not fresh")
    func getWithoutSensor() throws {
        let h = Harness()
        h.orientationFresh()
        let absent = RecordingSink()
        #expect(h.publisher.get(nil, readings: [.light], from: absent, id: .number(1)) == nil)
        h.publisher.take(.started, of: .light)
        h.publisher.take(.noSensor(reason: "none"), of: .light)
        #expect(absent.messages.first?.reading(.light) == ReadingState(kind: .light, present: false))
        #expect(absent.messages.first?.fresh == true)
        h.publisher.take(.stopped, of: .light)

        let slow = RecordingSink()
        #expect(h.publisher.get(nil, readings: [.proximity], from: slow, id: .number(2)) == nil)
        h.publisher.take(.started, of: .proximity)
        h.clock.advance(by: 1)
        let reply = try #require(slow.messages.first)
        #expect(reply.fresh == false && reply.reading(.proximity) == ReadingState(kind: .proximity, present: false))
    }

    @Test("Readings the daemon does not serve (a replay) are not present, and a get does not wait for them")
    func notServed() throws {
        let p = Publisher(settings: .init(), persistent: PersistentState(), version: "t", dependencies: .init(clock: ManualClock()))
        p.take(.accelerometerOpened(.init(id: "t", name: "t", mode: .replay)), of: .accelerometer)
        p.deviceChanged(.portrait, time: 1)
        let line = try #require(p.get(nil, readings: [.light], from: RecordingSink(), id: .number(1)))
        #expect(try ServerMessage.decode(Array(line.utf8.dropLast())).reading(.light) == ReadingState(kind: .light, present: false))
        let sink = RecordingSink()
        let lines = p.subscribe(sink, settings: SubscriptionSettings(), readings: [.proximity], id: nil).split(separator: "\n")
        #expect(lines.count == 2 && lines[1] == #"{"event":"proximity","present":false,"near":null}"#)
        #expect(p.status(id: nil).contains(#""readings":{}"#))
    }

    @Test("status lists each kind served: present, open, the sensor and its last reading; the compass as present only")
    func status() throws {
        let h = Harness()
        h.lightOpen(reading: 50)
        h.publisher.take(.present(true), of: .compass)
        h.publisher.take(.read(.compass(heading: 123)), of: .compass)
        let report = try #require(try ServerMessage.decode(Array(h.publisher.status(id: nil).utf8.dropLast())).statusReport)
        #expect(report.readingSensors == [
            .init(kind: "light", present: true, open: true, id: "iio:device1", name: "als",
                  foundBy: "IIO_SENSOR_PROXY_TYPE iio-poll-als", interval: 0.8, value: .light(level: 50, unit: .lux)),
            .init(kind: "proximity", present: nil, open: false),
            .init(kind: "compass", present: true),
        ])
        #expect(!h.publisher.status(id: nil).contains("123"), "no heading on the socket")
    }

    @Test("status's readings, byte for byte: PROTOCOL.md's example, and an open proximity sensor with its near level")
    func statusLine() throws {
        let h = Harness()
        h.lightOpen(reading: 50)
        h.publisher.take(.present(true), of: .proximity)
        h.publisher.take(.present(false), of: .compass)
        // The example in PROTOCOL.md, "status".
        #expect(h.publisher.status(id: nil).contains(#""readings":{"light":{"present":true,"open":true,"id":"iio:device1","name":"als","found-by":"IIO_SENSOR_PROXY_TYPE iio-poll-als","interval":0.8,"level":50,"unit":"lux"},"proximity":{"present":true,"open":false,"id":null,"name":null,"found-by":null,"interval":null,"near-level":null,"near":null},"compass":{"present":false}}"#))
        h.publisher.take(.started, of: .proximity)
        let proximity = ReadingSensorDescription(
            kind: .proximity, id: "iio:device2", name: "prox", interval: 0.7,
            foundBy: "IIO_SENSOR_PROXY_TYPE iio-poll-proximity", details: [.nearLevel: 200])
        h.publisher.take(.opened(proximity), of: .proximity)
        h.publisher.take(.read(.proximity(near: true)), of: .proximity)
        #expect(h.publisher.status(id: nil).contains(#""proximity":{"present":true,"open":true,"id":"iio:device2","name":"prox","found-by":"IIO_SENSOR_PROXY_TYPE iio-poll-proximity","interval":0.7,"near-level":200,"near":true}"#))
    }

    @Test("A subscriber whose socket is full is owed only the newest level")
    func backpressure() {
        let h = Harness()
        let sink = RecordingSink()
        _ = h.publisher.subscribe(sink, settings: SubscriptionSettings(), readings: [.light], id: nil)
        h.publisher.take(.present(true), of: .light)
        sink.isWritable = false
        for level in [10.0, 20, 30] { h.light(level) }
        sink.isWritable = true
        h.publisher.writable(sink)
        #expect(sink.events.map { $0.reading(.light)?.level } == [nil, 30])
    }
}
