import Foundation
import Logging
@testable import OrientSensors
import Testing

/// A HID channel's reader in process: scans the test hands a scripted buffer, a raw attribute in a file the test
/// writes, and a clock the test sets, so that silence, its checks and a stall take no time. What the kernel's own
/// drivers do with it is the kernel tier's (Tests/Kernel/test_hid_hub.py).
@Suite("HID channel reader, in process")
struct HIDChannelReaderTests {
    /// A buffer whose scans the test sends: a drain takes them all and keeps the last.
    final class ScriptedBuffer: ChannelBuffer {
        let nodePath = "/dev/iio:device4"
        let offset = 0.0
        let scale = 0.5
        private(set) var value: Double?
        private var pending: [Double] = []

        func send(_ value: Double) { pending.append(value) }

        func drain() throws(AttributeFault) -> Bool {
            guard let last = pending.last else { return false }
            value = last
            pending = []
            return true
        }
    }

    final class Clock: @unchecked Sendable {
        var now = 0.0
    }

    let buffer = ScriptedBuffer()
    let clock = Clock()
    let rawPath: String
    let log = RecordingLog()
    let reader: HIDChannelReader

    init() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hid-reader-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        rawPath = folder.appendingPathComponent("in_illuminance_raw").path
        let clock = self.clock
        reader = HIDChannelReader(
            buffer: buffer, id: "iio:device4", rawPath: rawPath, tolerance: .relative(0.1, floor: 1), now: { clock.now },
            logger: log.logger)
    }

    /// The raw attribute reads `text` from now on (a number, or garbage that fails a read of it).
    func raw(_ text: String) throws { try text.write(toFile: rawPath, atomically: true, encoding: .utf8) }

    func read(at time: Double) throws -> Double? {
        clock.now = time
        return try reader.read()
    }

    @Test("A scan's value holds through silence, with no raw read before the first check at 2 s")
    func holdsThroughSilence() throws {
        try raw("garbage")
        buffer.send(40)
        #expect(try read(at: 0) == 40)
        #expect(try read(at: 1.9) == 40, "held; a raw read would have failed")
        #expect(throws: AttributeFault.self, "checked at 2 s") { try read(at: 2) }
    }

    @Test("A check that reads as held is a still sensor: the next waits twice as long, and a scan that changes makes it 2 s again")
    func stillThenLonger() throws {
        buffer.send(40)
        #expect(try read(at: 0) == 40)
        try raw("82")  // 41: within 10 % of 40
        #expect(try read(at: 2) == 40, "still: the held value")
        try raw("garbage")
        #expect(try read(at: 5.9) == 40, "the next check 4 s after the first")
        #expect(throws: AttributeFault.self) { try read(at: 6) }
        buffer.send(90)
        #expect(try read(at: 6.5) == 90)
        #expect(try read(at: 8.4) == 90)
        #expect(throws: AttributeFault.self, "a change: checked 2 s after it") { try read(at: 8.5) }
        #expect(reader.takeIncidents().isEmpty, "a still sensor is no incident")
    }

    @Test("A check that reads elsewhere is a stall: said once, and the raw attribute is read from then on, scans or not")
    func stallTurnsToPolling() throws {
        buffer.send(40)
        #expect(try read(at: 0) == 40)
        try raw("300")
        #expect(try read(at: 2) == 150)
        let said = "iio:device4: /dev/iio:device4 sent nothing for 2.0 s while \(rawPath) went from 40.0 to 150.0; reading it instead"
        #expect(reader.takeIncidents() == [said])
        #expect(log.contains(said))
        try raw("20")
        buffer.send(99)
        #expect(try read(at: 2.1) == 10, "polled: each read is the raw attribute's")
        #expect(reader.takeIncidents().isEmpty)
    }

    @Test("No scan since the buffer opened: nothing until the first check, which takes the raw value and holds it")
    func noScanYet() throws {
        try raw("60")
        #expect(try read(at: 0) == nil)
        #expect(try read(at: 1.9) == nil)
        #expect(try read(at: 2) == 30)
        try raw("garbage")
        #expect(try read(at: 3) == 30, "held")
        #expect(reader.takeIncidents().isEmpty, "a sensor that was on already is no stall")
    }

    @Test("A fresh read is the sensor's own: a scan when one came, else the raw attribute, never the held value")
    func fresh() throws {
        buffer.send(40)
        #expect(try read(at: 0) == 40)
        try raw("0")
        clock.now = 0.5
        #expect(try reader.readFresh() == 0, "no scan since: the raw attribute")
        #expect(try read(at: 0.6) == 0, "and it holds")
        buffer.send(44)
        #expect(try reader.readFresh() == 44, "a scan that came")
    }
}
