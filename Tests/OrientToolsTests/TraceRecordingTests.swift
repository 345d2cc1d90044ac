import Foundation
import OrientCore
import OrientSampleSource
import OrientSensors
import OrientTools
import OrientTrace
import Testing

@Suite("orientd record's events to trace")
struct TraceRecordingTests {
    private func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString).trace").path
    }

    private func sample(_ t: Double, base: Vector3? = nil) -> SensorEvent {
        .sample(AccelSample(time: t, acceleration: Vector3(0, -9.8, 0), base: base))
    }

    @Test("The first description opens the trace; samples go through until the duration; the file reads back")
    func duration() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var said: [String] = []
        var recording = TraceRecording(output: path, duration: 0.1) { said.append($0) }
        let matrix = try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1")
        let opened = SensorDescription(id: "iio:device0", name: "accel_3d", mode: .polled, mountMatrix: matrix)
        #expect(recording.handle(sample(0)) == .next, "nothing is written before the trace exists")
        #expect(recording.handle(.opened(opened)) == .next)
        #expect(said.first?.hasPrefix("recording iio:device0 (accel_3d) to \(path)") == true)
        #expect(recording.handle(sample(1.00)) == .next)
        #expect(recording.handle(sample(1.05)) == .next)
        #expect(recording.handle(sample(1.10)) == .finished)
        #expect(recording.summary == "wrote 3 samples to \(path)")

        let reader = try TraceReader(path: path)
        #expect(reader.metadata.mountMatrix == matrix)
        #expect(reader.metadata.source == "iio:device0 accel_3d")
        var times: [Double] = []
        while let read = try reader.next() { times.append(read.time) }
        #expect(times == [1.00, 1.05, 1.10])
    }

    @Test("A convertible's trace leaves out display readings without a base reading and counts them")
    func withoutBase() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var recording = TraceRecording(output: path, duration: nil) { _ in }
        let opened = SensorDescription(id: "iio:device0", name: "display", mode: .polled, baseMountMatrix: .identity)
        _ = recording.handle(.opened(opened))
        _ = recording.handle(sample(0, base: Vector3(0, 0, -9.8)))
        _ = recording.handle(sample(0.02))
        #expect(recording.handle(.lost(reason: "unplugged")) == .finished, "the sensor going away ends it")
        #expect(recording.summary.hasSuffix("(1 display readings without a base reading left out)"))
    }

    @Test("No sensor is exit 66; a file that cannot be created is 73")
    func failures() {
        var recording = TraceRecording(output: "/nonexistent-dir/x.trace", duration: nil) { _ in }
        #expect(recording.handle(.noSensor(reason: "no accelerometer")) == .failed(status: 66, message: "no accelerometer"))
        let opened = SensorDescription(id: "iio:device0", name: "accel_3d", mode: .polled)
        guard case .failed(let status, _) = recording.handle(.opened(opened)) else {
            Issue.record("an unwritable path must fail")
            return
        }
        #expect(status == 73)
    }
}
