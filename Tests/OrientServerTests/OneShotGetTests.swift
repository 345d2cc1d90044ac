import OrientCore
import OrientProtocol
import OrientServer
import Testing

/// `get` on a daemon whose sensor is closed: it opens the sensor, waits for a committed orientation (bounded),
/// answers, and lets the sensor close again.
@Suite("One-shot get")
struct OneShotGetTests {
    /// A publisher whose time limits run when the test says, and which records what it asks of the sensor.
    final class Harness {
        let clock = ManualClock()
        private(set) var wanted: [Bool] = []
        private(set) lazy var publisher = Publisher(clock: clock) { [unowned self] in wanted.append($0) }

        func get(_ sink: RecordingSink, _ settings: SubscriptionSettings? = nil, id: Double) -> ServerMessage? {
            publisher.get(settings, from: sink, id: .number(id)).map { try! ServerMessage.decode(Array($0.utf8.dropLast())) }
        }

        /// The sensor was read before, committed `device`, and was closed when its last subscriber left.
        func readEarlier(_ device: DeviceOrientation) {
            publisher.take(.accelerometerOpened(.init(id: "t", name: "t", mode: .replay)), of: .accelerometer)
            publisher.deviceChanged(device, time: 1)
            publisher.take(.stopped, of: .accelerometer)
        }
    }

    @Test("With the sensor closed, get opens it and answers with the first orientation it commits, fresh")
    func waitsForCommit() {
        let h = Harness()
        h.readEarlier(.portrait)
        let sink = RecordingSink()
        #expect(h.get(sink, id: 1) == nil, "no answer until the sensor has spoken")
        #expect(h.wanted == [true])
        #expect(h.clock.delays == [1])
        h.publisher.take(.accelerometerOpened(.init(id: "t", name: "t", mode: .replay)), of: .accelerometer)
        #expect(sink.lines.isEmpty, "opened is not yet committed")
        h.publisher.deviceChanged(.landscapeLeft, time: 5)
        #expect(sink.messages.map(\.device) == ["landscape-left"])
        #expect(sink.messages.first?.fresh == true)
        #expect(sink.messages.first?.id == .number(1))
        #expect(h.wanted == [true, false], "the sensor may close again")
        h.clock.advance(by: 1)
        #expect(sink.lines.count == 1, "the time limit of an answered get does nothing")
    }

    @Test("No commit within the time limit: the last state, marked not fresh")
    func timeLimit() {
        let h = Harness()
        h.readEarlier(.portraitUpsideDown)
        let sink = RecordingSink()
        #expect(h.get(sink, id: 1) == nil)
        h.publisher.take(.accelerometerOpened(.init(id: "t", name: "t", mode: .replay)), of: .accelerometer)
        h.clock.advance(by: 0.999)
        #expect(sink.lines.isEmpty, "not before the time limit")
        h.clock.advance(by: 0.001)
        #expect(sink.messages.map(\.device) == ["portrait-upside-down"])
        #expect(sink.messages.first?.fresh == false)
        #expect(h.wanted == [true, false])
    }

    @Test("While the sensor reads and has committed, get answers at once, fresh; after it closes, it waits again")
    func freshAnswersAtOnce() {
        let h = Harness()
        let subscriber = RecordingSink()
        _ = h.publisher.subscribe(subscriber, settings: SubscriptionSettings(), id: nil)
        h.publisher.take(.accelerometerOpened(.init(id: "t", name: "t", mode: .replay)), of: .accelerometer)
        h.publisher.deviceChanged(.landscapeRight, time: 2)
        let now = h.get(RecordingSink(), id: 1)
        #expect(now?.device == "landscape-right")
        #expect(now?.fresh == true)
        #expect(h.wanted.isEmpty)
        h.publisher.unsubscribe(subscriber)
        h.publisher.take(.stopped, of: .accelerometer)
        #expect(h.get(RecordingSink(), id: 2) == nil)
    }

    @Test("Gets that come while one waits join it; a timer from an answered batch does not cut the next one short")
    func batches() {
        let h = Harness()
        h.readEarlier(.portrait)
        let a = RecordingSink(), b = RecordingSink(), c = RecordingSink()
        #expect(h.get(a, id: 1) == nil)
        #expect(h.get(b, id: 2) == nil)
        #expect(h.wanted == [true], "one request to open the sensor per batch")
        h.publisher.take(.accelerometerOpened(.init(id: "t", name: "t", mode: .replay)), of: .accelerometer)
        h.publisher.deviceChanged(.landscapeLeft, time: 3)
        #expect(a.messages.map(\.id) == [.number(1)])
        #expect(b.messages.map(\.id) == [.number(2)])
        h.publisher.take(.stopped, of: .accelerometer)
        h.clock.advance(by: 0.5)
        #expect(h.get(c, id: 3) == nil)
        h.clock.advance(by: 0.5)
        #expect(c.lines.isEmpty, "the first batch's time limit does not cut the second short")
        h.clock.advance(by: 0.5)
        #expect(c.messages.map(\.fresh) == [false], "the second batch's own limit, a second after it began")
        #expect(h.wanted == [true, false, true, false])
    }

    @Test("A sensor that turns out to be missing answers at once, not at the time limit")
    func noSensor() {
        let h = Harness()
        let sink = RecordingSink()
        #expect(h.get(sink, id: 1) == nil)
        h.publisher.take(.noSensor(reason: "none found"), of: .accelerometer)
        #expect(sink.messages.map(\.sensor) == ["none"])
        #expect(sink.messages.first?.fresh == false)
        #expect(h.wanted == [true, false])
    }

    @Test("A client that leaves while waiting is forgotten, and the sensor is not kept open for it")
    func disconnect() {
        let h = Harness()
        let sink = RecordingSink()
        #expect(h.get(sink, id: 1) == nil)
        h.publisher.disconnected(sink)
        #expect(h.wanted == [true, false])
        h.publisher.take(.accelerometerOpened(.init(id: "t", name: "t", mode: .replay)), of: .accelerometer)
        h.publisher.deviceChanged(.portrait, time: 1)
        #expect(sink.lines.isEmpty)
    }

    @Test("A replay that ended answers at once, not fresh")
    func replayEnded() {
        let h = Harness()
        h.readEarlier(.landscapeLeft)
        h.publisher.take(.ended, of: .accelerometer)
        let reply = h.get(RecordingSink(), id: 1)
        #expect(reply?.device == "landscape-left")
        #expect(reply?.fresh == false)
    }

    @Test("get with client settings answers as a client with them would see it now")
    func clientView() {
        let h = Harness()
        let subscriber = RecordingSink()
        _ = h.publisher.subscribe(subscriber, settings: SubscriptionSettings(), id: nil)
        h.publisher.take(.accelerometerOpened(.init(id: "t", name: "t", mode: .replay)), of: .accelerometer)
        h.publisher.deviceChanged(.faceUp, time: 1)
        let flat = h.get(RecordingSink(), SubscriptionSettings(mask: .landscape, preferred: .landscapeLeft), id: 1)
        #expect(flat?.interface == "landscape-left", "lying flat: the preferred one")
        #expect(flat?.mask == "landscape")
        #expect(h.publisher.systemState.interface == .portrait, "the system's view is not changed by it")
        h.publisher.deviceChanged(.landscapeLeft, time: 2)
        #expect(h.get(RecordingSink(), SubscriptionSettings(mask: .portrait), id: 2)?.interface == "portrait")
        let held = h.get(RecordingSink(), SubscriptionSettings(autorotate: false), id: 3)
        #expect(held?.locked == true, "a client that does not autorotate is told it is locked, as subscribe does")
        _ = h.publisher.control(.mask(.portrait))
        #expect(h.get(RecordingSink(), SubscriptionSettings(mask: .landscape), id: 4)?.error?.code == "empty-mask")
    }

    @Test("get with settings answers what a subscribe with them would, for every device and setting",
          arguments: DeviceOrientation.allCases)
    func sameAsSubscribe(device: DeviceOrientation) {
        let h = Harness()
        h.publisher.take(.accelerometerOpened(.init(id: "t", name: "t", mode: .replay)), of: .accelerometer)
        h.publisher.deviceChanged(.landscapeRight, time: 1)
        h.publisher.deviceChanged(device, time: 2)
        let masks: [InterfaceOrientationMask] = [.all, .allButUpsideDown, .landscape, .portrait, .landscapeLeft]
        let preferences: [InterfaceOrientation?] = [nil, .portrait, .portraitUpsideDown, .landscapeLeft]
        for mask in masks {
            for preferred in preferences {
                for autorotate in [true, false] {
                    let settings = SubscriptionSettings(mask: mask, preferred: preferred, autorotate: autorotate)
                    let answer = h.get(RecordingSink(), settings, id: 1)
                    let sink = RecordingSink()
                    sink.send(h.publisher.subscribe(sink, settings: settings, id: .number(1)))
                    h.publisher.unsubscribe(sink)
                    let subscribed = sink.messages.first
                    let label = "\(mask) \(String(describing: preferred)) autorotate \(autorotate)"
                    #expect(answer?.interface == subscribed?.interface, "\(label)")
                    #expect(answer?.locked == subscribed?.locked, "\(label)")
                    #expect(answer?.mask == subscribed?.mask, "\(label)")
                    #expect(answer?.device == subscribed?.device, "\(label)")
                }
            }
        }
    }
}

/// The moment the daemon gives back its start-up pages: the state becoming fresh, once per opening of the sensor.
@Suite("Becoming fresh")
struct BecameFreshTests {
    final class Counter { var count = 0 }

    @Test("Told once when an opened sensor commits its first orientation, and again only after a close and reopen")
    func oncePerOpening() {
        let counter = Counter()
        let publisher = Publisher(
            settings: .init(), persistent: PersistentState(), version: "test",
            dependencies: .init(clock: ManualClock(), becameFresh: { counter.count += 1 }))
        publisher.take(.accelerometerOpened(.init(id: "t", name: "t", mode: .replay)), of: .accelerometer)
        #expect(counter.count == 0, "opened is not yet read")
        publisher.deviceChanged(.portrait, time: 1)
        #expect(counter.count == 1)
        publisher.deviceChanged(.landscapeLeft, time: 2)
        publisher.deviceChanged(.portrait, time: 3)
        #expect(counter.count == 1, "later changes are not start-up")
        publisher.take(.stopped, of: .accelerometer)
        publisher.take(.accelerometerOpened(.init(id: "t", name: "t", mode: .replay)), of: .accelerometer)
        publisher.deviceChanged(.portrait, time: 4)
        #expect(counter.count == 2)
    }
}
