import Foundation
import OrientCore
import OrientTestSupport
import OrientTrace
import Testing

/// The keys a line of classify may hold.
private let knownKeys: Set<String> = ["t", "device", "interface", "rotation", "posture", "tablet-mode", "hinge-angle"]

@Suite("orientd classify: two-sensor traces, in process")
struct ClassifyConvertibleTests {
    func classify(_ path: String, _ options: [String] = []) throws -> [PrintedChange] {
        let output = InProcessOrientd.run(["classify", path] + options)
        #expect(output.status == 0, "\(output.stderr)")
        return try PrintedChange.all(output.stdout)
    }

    @Test("A laptop folded back to a tablet: posture, tablet mode and hinge angle lines, in time order")
    func fold() throws {
        let lines = try classify(try ConvertibleTrace.write(ConvertibleTrace.fold))
        #expect(lines.allSatisfy { $0.keys.isSubset(of: knownKeys) && $0.keys.count >= 2 })
        #expect(zip(lines, lines.dropFirst()).allSatisfy { $0.t < $1.t }, "one line per sample, in order")

        let postures = lines.compactMap(\.posture)
        #expect(postures.first == "laptop" && postures.last == "tablet", "\(postures)")
        #expect(Set(postures).isSubset(of: ["laptop", "flat", "tent", "stand", "tablet"]), "\(postures)")
        let laptop = try #require(lines.first { $0.posture == "laptop" })
        #expect(laptop.t <= 0.2, "committed after the settle time")
        let tablet = try #require(lines.first { $0.posture == "tablet" })
        // θ reaches the tablet band (330°) at 2.88 s; the filter and the settle time add a little.
        #expect(tablet.t > 2.88 && tablet.t < 3.3, "\(tablet.t)")

        let modes = lines.compactMap { $0.tabletMode ?? nil }
        #expect(modes == [false, true])
        let on = try #require(lines.first { $0.tabletMode == .some(true) })
        // θ passes 200° at 2.385 s.
        #expect(on.t > 2.385 && on.t < 2.7, "\(on.t)")

        #expect(!lines.contains { $0.hingeAngle == .some(nil) }, "never unknown")
        let angles = lines.compactMap { $0.hingeAngle ?? nil }
        let first = try #require(lines.first)
        #expect(first.hingeAngle == .some(100) && first.t == 0, "known from the first sample")
        #expect(zip(angles, angles.dropFirst()).allSatisfy { $1 > $0 }, "\(angles)")
        #expect(angles.count > 40, "a line at least every few degrees through the fold")
        #expect(lines.filter { $0.t < 2 }.compactMap { $0.hingeAngle ?? nil } == [100], "still at 100° for two seconds")
        #expect((angles.last ?? 0) >= 355)
    }

    @Test("A trace with a hinge column and no base: the kernel's angles make the posture, unknown holds it")
    func kernelHinge() throws {
        // The fold as a machine with a hinge sensor and the display's accelerometer alone, the sensor unable to
        // tell for a while once folded.
        let samples = ConvertibleTrace.fold.enumerated().map { i, sample in
            let theta = sample.time < 2 ? 100 : min(360, 100 + 260 * (sample.time - 2))
            let hinge: KernelHingeAngle = i >= 200 ? .unknown : .degrees(theta.rounded())
            return AccelSample(time: sample.time, acceleration: sample.acceleration, hinge: hinge)
        }
        let path = try ConvertibleTrace.write(samples)
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("# orientd trace v3\nt,x,y,z,hinge\n"))
        let lines = try classify(path)
        let first = try #require(lines.first)
        #expect(first.t == 0 && first.hingeAngle == .some(100), "the kernel's angle from the first sample")
        #expect(lines.compactMap(\.posture).first == "laptop" && lines.compactMap(\.posture).last == "tablet")
        #expect(lines.compactMap { $0.tabletMode ?? nil } == [false, true])
        #expect(!lines.contains { $0.t >= 4 && ($0.posture != nil || $0.tabletMode != nil) }, "unknown holds the posture")
    }

    @Test("classify and plot take the daemon's tablet-mode angles: later on, later off, and a bad pair refused")
    func tabletModeAngles() throws {
        let path = try ConvertibleTrace.write(ConvertibleTrace.fold)
        let standard = try #require(try classify(path).first { $0.tabletMode == .some(true) })
        // θ passes 200° at 2.385 s and 260° later in the same fold.
        let later = try #require(try classify(path, ["--tablet-mode-on-angle", "260"]).first { $0.tabletMode == .some(true) })
        #expect(later.t > standard.t + 0.2, "on at \(later.t), against \(standard.t) at 200°")
        let refused = InProcessOrientd.run(["classify", path, "--tablet-mode-on-angle", "150"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("tablet-mode-off-angle: must be below tablet-mode-on-angle (150.0)"), "\(refused.stderr)")
        let plot = InProcessOrientd.run(["plot", path, "--tablet-mode-off-angle", "wide", "-o", "/dev/null"])
        #expect(plot.status == 64)
        #expect(plot.stderr.contains("--tablet-mode-off-angle: \"wide\" is not a number"), "\(plot.stderr)")
    }

    @Test("Out of tablet mode the interface is held upright for the keyboard; --rotate-in always lets it turn")
    func rotateIn() throws {
        let path = try ConvertibleTrace.write(ConvertibleTrace.fold)
        let held = try classify(path)
        let on = try #require(held.first { $0.tabletMode == .some(true) })
        let before = held.filter { $0.t < on.t && $0.interface != nil }
        #expect(before.contains { $0.device == "portrait-upside-down" }, "the lid passes upside down while folding")
        #expect(before.allSatisfy { $0.interface == "portrait" }, "held upright: \(before.map(\.interface))")
        #expect(on.interface == "portrait-upside-down", "released when tablet mode comes on, in the same line")

        let always = try classify(path, ["--rotate-in", "always"])
        let turned = try #require(always.first { $0.device == "portrait-upside-down" })
        #expect(turned.interface == "portrait-upside-down")
        #expect(always.compactMap(\.posture) == held.compactMap(\.posture), "posture does not depend on rotate-in")
        #expect(try classify(path, ["--rotate-in", "tablet-mode"]).map(\.keys) == held.map(\.keys))
    }

    @Test("A hinge held vertical makes the angle unknown (null); the posture stays")
    func hingeVertical() throws {
        var samples = (0..<50).map { ConvertibleTrace.sample(time: Double($0) / 50, theta: 120) }
        // Stood on its side, like a book: gravity along the hinge for both sensors.
        let side = Vector3(ConvertibleTrace.g, 0, 0)
        samples += (50..<150).map { AccelSample(time: Double($0) / 50, acceleration: side, base: side) }
        let lines = try classify(try ConvertibleTrace.write(samples))
        let angles: [Int?] = lines.filter { $0.keys.contains("hinge-angle") }.map { $0.hingeAngle ?? nil }
        #expect(angles == [120, nil])
        let unknown = try #require(lines.first { $0.hingeAngle == .some(nil) })
        #expect(unknown.t > 1 && unknown.t < 1.6)
        #expect(lines.compactMap(\.posture) == ["laptop"])
        #expect(lines.compactMap { $0.tabletMode ?? nil } == [false])
    }

    @Test("The base mount matrix comes from the trace or --base-mount-matrix, and --no-mount-repair applies to it")
    func baseMountMatrix() throws {
        let truth = try classify(try ConvertibleTrace.write(ConvertibleTrace.fold))

        // The base sensor mounted upside down (a proper rotation): its raw readings are the device's turned back.
        let flipped = MountMatrix(x: Vector3(1, 0, 0), y: Vector3(0, -1, 0), z: Vector3(0, 0, -1))
        let rawFlipped = ConvertibleTrace.fold.map { sample in
            AccelSample(time: sample.time, acceleration: sample.acceleration, base: flipped.apply(sample.base!))
        }
        let flippedPath = try ConvertibleTrace.write(rawFlipped, metadata: TraceMetadata(baseMountMatrix: flipped))
        #expect(try classify(flippedPath).map(\.keys) == truth.map(\.keys))
        #expect(try classify(flippedPath).compactMap(\.posture) == truth.compactMap(\.posture))
        let overridden = try classify(flippedPath, ["--base-mount-matrix", "1, 0, 0; 0, 1, 0; 0, 0, 1"])
        #expect(overridden.compactMap(\.posture) != truth.compactMap(\.posture), "the override wins over the trace")

        // A mirrored matrix (z negated): only used as given does it read the base right.
        let mirrored = MountMatrix(x: Vector3(1, 0, 0), y: Vector3(0, 1, 0), z: Vector3(0, 0, -1))
        let rawMirrored = ConvertibleTrace.fold.map { sample in
            AccelSample(time: sample.time, acceleration: sample.acceleration, base: mirrored.apply(sample.base!))
        }
        let mirroredPath = try ConvertibleTrace.write(rawMirrored, metadata: TraceMetadata(baseMountMatrix: mirrored))
        let asGiven = try classify(mirroredPath, ["--no-mount-repair"])
        #expect(asGiven.compactMap(\.posture) == truth.compactMap(\.posture))
        #expect(asGiven.map(\.hingeAngle) == truth.map(\.hingeAngle))
        let repaired = try classify(mirroredPath)
        #expect(repaired.map(\.hingeAngle) != truth.map(\.hingeAngle), "the repair turns z back")
    }

    @Test("A v1 trace prints what it printed before two-sensor traces existed, and the rotation")
    func v1Unchanged() throws {
        let path = TraceFiles.demo
        let output = InProcessOrientd.run(["classify", path])
        #expect(output.status == 0)
        // The lines as the printer of v1 wrote them, from the orientation engine alone.
        let reader = try TraceReader(path: path)
        #expect(reader.columns == .display)
        var engine = try OrientationEngine(
            mountMatrix: reader.metadata.mountMatrix ?? .identity, tracker: InterfaceOrientationTracker())
        var expected = ""
        while let sample = try reader.next() {
            if let change = try engine.feed(sample), let interface = change.interface {
                let rotation = NaturalOrientation.portrait.pose(showing: interface)?.rotation
                expected += #"{"t":\#(change.time),"device":"\#(change.device)","interface":"\#(interface)","rotation":\#(rotation!)}"#
                    + "\n"
            }
        }
        #expect(expected.split(separator: "\n").count > 10)
        #expect(output.stdout == expected)
        for options in [["--rotate-in", "tablet-mode"], ["--base-mount-matrix", "0, 1, 0; 1, 0, 0; 0, 0, 1"]] {
            #expect(InProcessOrientd.run(["classify", path] + options).stdout == expected, "\(options) need a base")
        }
    }

    @Test("A base that does not move leaves the orientation lines as the display alone gives them, under rotate-in always")
    func baseDoesNotDisturbOrientation() throws {
        let reader = try TraceReader(path: TraceFiles.demo)
        var display: [AccelSample] = []
        while let sample = try reader.next() { display.append(sample) }
        let withBase = display.map { AccelSample(time: $0.time, acceleration: $0.acceleration, base: ConvertibleTrace.baseOnDesk) }
        let metadata = TraceMetadata(mountMatrix: reader.metadata.mountMatrix)
        let alone = try classify(try ConvertibleTrace.write(display, metadata: metadata))
        let both = try classify(try ConvertibleTrace.write(withBase, metadata: metadata), ["--rotate-in", "always"])
        let orientation = both.filter { $0.device != nil }
        #expect(orientation.map(\.t) == alone.map(\.t))
        #expect(orientation.map(\.device) == alone.map(\.device))
        #expect(orientation.map(\.interface) == alone.map(\.interface))
        #expect(both.contains { $0.posture != nil }, "and the posture lines come beside them")
    }

    @Test("Malformed base or hinge columns exit 65 naming the line and field; bad new options exit 64")
    func errors() throws {
        let badPath = try TraceFiles.write(text: "# orientd trace v2\nt,x,y,z,bx,by,bz\n0,0,-9.8,0,0,0,-9.8\n0.1,0,-9.8,0,abc,0,-9.8\n")
        let bad = InProcessOrientd.run(["classify", badPath])
        #expect(bad.status == 65)
        #expect(bad.stderr.contains(#"\#(badPath):4: bx "abc" is not a finite number"#), "\(bad.stderr)")
        let shortPath = try TraceFiles.write(text: "t,x,y,z,bx,by,bz\n0,0,-9.8,0,0\n")
        let short = InProcessOrientd.run(["classify", shortPath])
        #expect(short.status == 65)
        #expect(short.stderr.contains("\(shortPath):2: expected 7 columns t,x,y,z,bx,by,bz, found 5"), "\(short.stderr)")
        let futurePath = try TraceFiles.write(text: "# orientd trace v4\nt,x,y,z\n")
        let future = InProcessOrientd.run(["classify", futurePath])
        #expect(future.status == 65)
        #expect(future.stderr.contains(#"\#(futurePath):1: unsupported trace version "4""#), "\(future.stderr)")
        let hingePath = try TraceFiles.write(text: "# orientd trace v3\nt,x,y,z,hinge\n0,0,-9.8,0,90\n0.1,0,-9.8,0,500\n")
        let hinge = InProcessOrientd.run(["classify", hingePath])
        #expect(hinge.status == 65)
        #expect(hinge.stderr.contains(#"\#(hingePath):4: hinge "500" is neither degrees from 0 to 360 nor unknown"#), "\(hinge.stderr)")
        for options in [["--rotate-in", "sideways"], ["--base-mount-matrix", "1, 0, 0"], ["--rotate-in"]] {
            let usage = InProcessOrientd.run(["classify", TraceFiles.fold] + options)
            #expect(usage.status == 64, "\(options)")
        }
    }
}

extension ClassifyConvertibleTests {
    @Test("The shipped fold trace names the laptop upright as a landscape panel does, as the daemon on one would")
    func shippedFoldTraceIsLandscape() throws {
        let first = try #require(try classify(TraceFiles.fold).first { $0.device != nil })
        #expect(first.device == "landscape-left")
        #expect(first.interface == "landscape-right")
    }
}
