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

    @Test("With a hinge sensor the trace has its column (v3), names it, and leaves out readings without an angle")
    func withHinge() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var said: [String] = []
        var recording = TraceRecording(output: path, duration: nil) { said.append($0) }
        let hinge = HingeSensorDescription(id: "iio:device2", name: "cros-ec-lid-angle")
        _ = recording.handle(.opened(SensorDescription(id: "iio:device0", name: "display", mode: .polled, hinge: hinge)))
        #expect(said.first?.contains("and the hinge sensor cros-ec-lid-angle (iio:device2) to") == true, "\(said)")
        let display = Vector3(0, -9.8, 0)
        _ = recording.handle(.sample(AccelSample(time: 0, acceleration: display, hinge: .degrees(100))))
        _ = recording.handle(.sample(AccelSample(time: 0.1, acceleration: display)))
        _ = recording.handle(.sample(AccelSample(time: 0.2, acceleration: display, hinge: .unknown)))
        #expect(recording.summary == "wrote 2 samples to \(path) (1 display readings without a hinge angle left out)")

        let reader = try TraceReader(path: path)
        #expect(reader.columns == .displayAndHinge)
        #expect(reader.metadata.entries.contains(.init(key: "hinge-source", value: "iio:device2 cros-ec-lid-angle")))
        #expect(try reader.next()?.hinge == .degrees(100))
        #expect(try reader.next()?.hinge == .unknown)
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("# orientd trace v3\n"))
    }

    @Test("Without a hinge sensor, a sample's hinge angle is not written: v1 and v2 as before")
    func withoutHinge() throws {
        for base in [nil, MountMatrix.identity] {
            let path = temporaryPath()
            defer { try? FileManager.default.removeItem(atPath: path) }
            var recording = TraceRecording(output: path, duration: nil) { _ in }
            _ = recording.handle(.opened(SensorDescription(id: "iio:device0", name: "display", mode: .polled, baseMountMatrix: base)))
            let sample = AccelSample(time: 0, acceleration: Vector3(0, -9.8, 0), base: Vector3(0, 0, -9.8), hinge: .degrees(90))
            _ = recording.handle(.sample(sample))
            let reader = try TraceReader(path: path)
            #expect(reader.columns == TraceColumns(base: base != nil, hinge: false))
            #expect(try reader.next()?.hinge == nil)
        }
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
