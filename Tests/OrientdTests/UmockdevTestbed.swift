import Foundation

/// Emulated IIO devices (umockdev), driven through Fixtures/testbed.py.
final class UmockdevTestbed {
    static let python = "/usr/bin/python3"
    static let script = String(#filePath).replacingOccurrences(of: "UmockdevTestbed.swift", with: "Fixtures/testbed.py")

    /// Where the dynamic loader finds umockdev's preload library, from its cache (`ldconfig -p`), whatever the
    /// architecture's library directory; nil when it is not installed.
    static let preloadLibrary: String? = {
        guard let ldconfig = ["/sbin/ldconfig", "/usr/sbin/ldconfig"].first(where: FileManager.default.isExecutableFile)
        else { return nil }
        let probe = Process()
        let output = Pipe()
        probe.executableURL = URL(fileURLWithPath: ldconfig)
        probe.arguments = ["-p"]
        probe.standardOutput = output
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return nil }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        probe.waitUntilExit()
        // Lines read "\tlibumockdev-preload.so.0 (libc6,x86-64) => /lib/x86_64-linux-gnu/libumockdev-preload.so.0".
        let line = text.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("libumockdev-preload.so.0 ") }
        return line?.components(separatedBy: " => ").last.map { $0.trimmingCharacters(in: .whitespaces) }
    }()

    /// Whether umockdev's preload library, its GObject introspection data and python3-gi are installed.
    static let isAvailable: Bool = {
        guard preloadLibrary != nil else { return false }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: python)
        probe.arguments = ["-c", "import gi; gi.require_version('UMockdev', '1.0'); from gi.repository import UMockdev"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    static let skipReason = "umockdev emulation not available (needs umockdev, gir1.2-umockdev-1.0, python3-gi): `make test` installs them"

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer = Data()
    let root: String

    init() throws {
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [Self.script]
        // As umockdev-wrapper runs it: the testbed's own libudev must see the emulated /sys, or the uevents it
        // sends for added and removed devices fail and clients see no hotplug event.
        process.environment = ProcessInfo.processInfo.environment.merging(["LD_PRELOAD": "libumockdev-preload.so.0"]) { $1 }
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        root = try Self.field("root", of: Self.readLine(output, &buffer))
    }

    /// The environment a child needs to see the emulated devices.
    var environment: [String: String] { ["LD_PRELOAD": "libumockdev-preload.so.0", "UMOCKDEV_DIR": root] }

    /// Adds an IIO device (or, with `subsystem` "drm", a display connector), under the device at sysfs path
    /// `parent` when given; attribute values get the trailing newline real sysfs has.
    func addDevice(
        _ name: String, subsystem: String = "iio", attributes: [String: String], properties: [String: String] = [:],
        parent: String? = nil
    ) throws -> String {
        let withNewlines = attributes.mapValues { $0.hasSuffix("\n") ? $0 : $0 + "\n" }
        var command: [String: Any] = [
            "add": name, "subsystem": subsystem, "attributes": withNewlines, "properties": properties,
        ]
        if let parent { command["parent"] = parent }
        return try Self.field("path", of: send(command))
    }

    /// Writes an IIO device's sysfs folder without announcing it: a device being added that udev has not announced
    /// yet. `uevent(path, "add")` announces it.
    func stageDevice(_ name: String, attributes: [String: String], properties: [String: String] = [:]) throws -> String {
        let withNewlines = attributes.mapValues { $0.hasSuffix("\n") ? $0 : $0 + "\n" }
        return try Self.field("path", of: send(["stage": name, "attributes": withNewlines, "properties": properties]))
    }

    /// A DRM connector (`card0-eDP-1`) with a display connected whose preferred mode is `mode` (`1920x1080`).
    @discardableResult
    func addConnector(_ name: String, mode: String, connected: Bool = true) throws -> String {
        try addDevice(name, subsystem: "drm", attributes: ["status": connected ? "connected" : "disconnected", "modes": mode])
    }

    /// Each attribute set to its value plus uniform noise of up to `noise` either way, rounded to an integer, now and
    /// then every `period` seconds until the next `hold` for `path` (raw readings that jitter on a timer); once only
    /// with `period` 0. Jitter only while the sensor is open: umockdev replaces an attribute file by a rename, and
    /// libiio, listing the directory as it opens the device, may then find a temporary file gone.
    func hold(_ path: String, values: [String: Double], noise: Double, period: Double = 0.04) throws {
        _ = try send(["hold": path, "values": values, "noise": noise, "period": period])
    }

    func set(_ path: String, _ attribute: String, _ value: String) throws {
        _ = try send(["set": path, "attribute": attribute, "value": value + "\n"])
    }

    /// Adds a device from umockdev's text form (`P:`, `N:`, `E:`, `A:` lines).
    func describe(_ text: String) throws {
        _ = try send(["describe": text])
    }

    /// Writes `count` scans to the device node (a /dev path) at `rate` per second, in the background. `{t}` in the hex scan
    /// becomes a nanosecond timestamp advancing by 1/rate from 1 s, or with `clock` (e.g. "realtime") that clock's
    /// time at each write, as the kernel stamps scans.
    func stream(_ path: String, scanHex: String, count: Int, rate: Double, clock: String? = nil) throws {
        var command: [String: Any] = ["stream": path, "scan": scanHex, "count": count, "rate": rate]
        if let clock { command["clock"] = clock }
        _ = try send(command)
    }

    /// Deletes one attribute file of the device at `path`, with no uevent: the device vanishing under a reader
    /// before udev announces it.
    func unlink(_ path: String, attribute: String) throws {
        _ = try send(["unlink": path, "attribute": attribute])
    }

    /// Closes the test's side of a PTY device node (a /dev path): its reader gets end of file, as from a device
    /// whose buffer went away before udev announces the removal.
    func hangUp(_ node: String) throws {
        _ = try send(["hangup": node])
    }

    func remove(_ path: String) throws {
        _ = try send(["remove": path])
    }

    /// Sends udev event `action` (`add`, `remove`) for `path` and leaves its sysfs folder as it is.
    func uevent(_ path: String, _ action: String) throws {
        _ = try send(["uevent": path, "action": action])
    }

    /// An emulated gpio-keys proximity switch, /dev/input/event4 (SW_FRONT_PROXIMITY), reading near or not.
    func addProximitySwitch(near: Bool) throws {
        _ = try send(["proximity-switch": near])
    }

    /// An emulated evdev accelerometer, /dev/input/event9 (ID_INPUT_ACCELEROMETER), whose EVIOCGABS reads `axes`
    /// (256 is 1 g); with `axes` nil it answers no EVIOCGABS.
    @discardableResult
    func addInputAccelerometer(axes: (x: Int32, y: Int32, z: Int32)?, properties: [String: String] = [:]) throws -> String {
        let values: Any = axes.map { [$0.x, $0.y, $0.z] } ?? NSNull()
        return try Self.field("path", of: send(["input-accel": values, "properties": properties]))
    }

    func setInputAccelerometer(_ axes: (x: Int32, y: Int32, z: Int32)) throws {
        _ = try send(["input-accel-set": [axes.x, axes.y, axes.z]])
    }

    func setProximitySwitch(near: Bool) throws {
        _ = try send(["proximity-switch-set": near])
    }

    /// An input device reporting SW_TABLET_MODE named `name`: the machine's own tablet-mode switch.
    func addTabletModeSwitch(name: String) throws {
        _ = try send(["tablet-mode-switch": name])
    }

    /// An emulated lid switch (an input device reporting SW_LID), shut or open.
    func addLidSwitch(closed: Bool) throws {
        _ = try send(["lid": closed])
    }

    /// Shuts or opens the emulated lid: its state, and the event a reader of the device gets.
    func setLid(closed: Bool) throws {
        _ = try send(["lid-set": closed])
    }

    /// An emulated /dev/uinput that records the requests and events written to it (see testbed.py).
    func addUinput() throws {
        _ = try send(["uinput": true])
    }

    /// What the emulated /dev/uinput was asked, in order: ioctls by name, and each input event written.
    func uinputLog() throws -> [[String: Any]] {
        guard let log = try send(["uinput-log": true])["log"] as? [[String: Any]] else { throw HarnessError("no uinput log") }
        return log
    }

    private func send(_ command: [String: Any]) throws -> [String: Any] {
        var line = try JSONSerialization.data(withJSONObject: command)
        line.append(UInt8(ascii: "\n"))
        input.fileHandleForWriting.write(line)
        return try Self.readLine(output, &buffer)
    }

    private static func readLine(_ pipe: Pipe, _ buffer: inout Data) throws -> [String: Any] {
        while !buffer.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw HarnessError("testbed.py exited") }
            buffer.append(chunk)
        }
        let newline = buffer.firstIndex(of: UInt8(ascii: "\n"))!
        let line = buffer[..<newline]
        buffer.removeSubrange(...newline)
        guard let object = try JSONSerialization.jsonObject(with: line) as? [String: Any] else {
            throw HarnessError("testbed.py said \(String(decoding: line, as: UTF8.self))")
        }
        return object
    }

    private static func field(_ name: String, of object: [String: Any]) throws -> String {
        guard let value = object[name] as? String else { throw HarnessError("testbed.py gave no \(name): \(object)") }
        return value
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// The monotonic clock now, in seconds: the time base of the daemon's published `t` for live sensors.
func monotonicNow() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
}
