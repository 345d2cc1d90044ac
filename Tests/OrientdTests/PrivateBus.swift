import Foundation
import OrientTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A dbus-daemon of the tests' own, standing in for the system bus (`DBUS_SYSTEM_BUS_ADDRESS`). Without a policy
/// file anyone may own any name and call anything; with one, the bus denies as the real system bus does (no name
/// owned, no method called unless a policy file allows it) and includes that file.
final class PrivateBus {
    static let daemon = "/usr/bin/dbus-daemon"
    static let busctl = "/usr/bin/busctl"
    static let monitorSensor = "/usr/bin/monitor-sensor"

    /// dbus-daemon, busctl, iio-sensor-proxy's client monitor-sensor, and python-dbusmock.
    static let isAvailable = [daemon, busctl, monitorSensor].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
        && FileManager.default.fileExists(atPath: PolkitMock.dbusmockTemplate)
    static let skipReason =
        "needs dbus-daemon, busctl, monitor-sensor (Debian's iio-sensor-proxy) and python3-dbusmock: `make test` installs them"

    let folder: String
    var address: String { "unix:path=\(folder)/system_bus_socket" }
    var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": address] }
    private var process: Process?

    /// - Parameter polkit: whether polkit can be activated (allowing the sensor claims); without it, orientd refuses
    ///   every claim, as iio-sensor-proxy does.
    init(folder: String, policyFile: String? = nil, polkit: Bool = true) throws {
        self.folder = folder
        let openPolicy = """
                <allow own="*"/>
                <allow send_type="method_call"/>
                <allow send_destination="*"/>
                <allow receive_sender="*"/>
            """
        // As Debian's /usr/share/dbus-1/system.conf: holes are punched by the included files (polkit's own among them).
        let systemPolicy = """
                <deny own="*"/>
                <deny send_type="method_call"/>
                <allow send_type="signal"/>
                <allow send_requested_reply="true" send_type="method_return"/>
                <allow send_requested_reply="true" send_type="error"/>
                <allow receive_type="method_call"/>
                <allow receive_type="method_return"/>
                <allow receive_type="error"/>
                <allow receive_type="signal"/>
                <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
                <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
                <allow own="org.freedesktop.PolicyKit1"/>
                <allow send_destination="org.freedesktop.PolicyKit1"/>
            """
        let configuration = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>system</type>
              <listen>\(address)</listen>
              <auth>EXTERNAL</auth>
            \(polkit ? "<servicedir>\(try PolkitMock.serviceFolder(in: folder, busAddress: address))</servicedir>" : "")
              <policy context="default">
                <allow user="*"/>
            \(policyFile == nil ? openPolicy : systemPolicy)
              </policy>
            \(policyFile.map { "<include>\($0)</include>" } ?? "")
            </busconfig>
            """
        try configuration.write(toFile: folder + "/bus.conf", atomically: true, encoding: .utf8)
        try start()
    }

    /// Starts the bus (again, after ``stop()``, on the same address).
    func start() throws {
        unlink(folder + "/system_bus_socket")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.daemon)
        process.arguments = ["--config-file=\(folder)/bus.conf", "--nofork", "--nopidfile"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        guard waitFor(timeout: 10, { self.busctl(["list"]).status == 0 }) else { throw HarnessError("dbus-daemon did not start") }
    }

    /// Kills the bus, as a crash or a restart would take it away.
    func stop() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    func busctl(_ arguments: [String]) -> OrientdProcess.Output {
        (try? OrientdProcess.run(["--system"] + arguments, executable: Self.busctl, environment: environment))
            ?? OrientdProcess.Output(status: -1, stdout: "", stderr: "busctl did not run")
    }

    /// A property of the facade as busctl prints it: `b true`, `s "normal"`; nil when it cannot be read.
    func property(_ name: String, path: String = "/net/hadess/SensorProxy", interface: String = "net.hadess.SensorProxy") -> String? {
        let output = busctl(["get-property", "net.hadess.SensorProxy", path, interface, name])
        return output.status == 0 ? output.stdout.trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }

    deinit { stop() }
}

/// A child process whose standard output is read line by line as it comes (monitor-sensor, bus_client.py).
final class LineProcess {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var pending = ""
    private(set) var lines: [String] = []

    /// `inherit`: the test's own environment under `environment`; else `environment` alone. Standard error goes
    /// to `errorLog` when given.
    init(
        _ executable: String, _ arguments: [String], environment: [String: String], inherit: Bool = true,
        errorLog: String? = nil
    ) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = inherit ? ProcessInfo.processInfo.environment.merging(environment) { $1 } : environment
        process.standardInput = input
        process.standardOutput = output
        if let errorLog {
            _ = FileManager.default.createFile(atPath: errorLog, contents: nil)
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorLog))
        } else {
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
    }

    /// Waits until a line from index `start` on satisfies `matches`; returns it.
    @discardableResult
    func waitForLine(after start: Int = 0, timeout: Double = 10, _ matches: (String) -> Bool) -> String? {
        waitForLineIndex(after: start, timeout: timeout, matches).map { lines[$0] }
    }

    /// Like ``waitForLine(after:timeout:_:)``, returning the line's index.
    func waitForLineIndex(after start: Int = 0, timeout: Double = 10, _ matches: (String) -> Bool) -> Int? {
        let deadline = Date().addingTimeInterval(timeout)
        var index = start
        while true {
            while index < lines.count {
                if matches(lines[index]) { return index }
                index += 1
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var entry = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, Int32(left * 1000) + 1) > 0 else { continue }
            let data = output.fileHandleForReading.availableData
            guard !data.isEmpty else { return nil }
            pending += String(decoding: data, as: UTF8.self)
            while let newline = pending.firstIndex(of: "\n") {
                lines.append(String(pending[..<newline]))
                pending.removeSubrange(...newline)
            }
        }
    }

    /// Sends a command line without waiting for an answer.
    func send(_ command: String) {
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
    }

    /// Sends a command line and returns the next line of output (bus_client.py's signal lines aside).
    func ask(_ command: String, timeout: Double = 10) -> String? {
        let start = lines.count
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
        return waitForLine(after: start, timeout: timeout) { !$0.hasPrefix("signal ") }
    }

    func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { kill() }
}
