import Foundation

/// Runs the built `orientd` binary as a separate process, as users and scripts do.
struct OrientdProcess {
    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The binary beside the test bundle (swift build puts both in the same folder), or `$ORIENTD_BIN`.
    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["ORIENTD_BIN"] { return path }
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        // An .xctest bundle on Linux is a single file; on other layouts it is a folder inside the build folder.
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("orientd").path), folder.path != "/" {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("orientd").path
    }

    /// orientctl, beside orientd.
    static var orientctl: String {
        URL(fileURLWithPath: binary).deletingLastPathComponent().appendingPathComponent("orientctl").path
    }

    /// Runs `executable` (orientd by default) with `prefix` then `arguments`: a prefix lets a wrapper such as
    /// setpriv run the real program.
    static func run(
        _ arguments: [String], stdin: String? = nil, executable: String? = nil, environment: [String: String] = [:],
        prefix: [String] = []
    ) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable ?? binary)
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.arguments = prefix + arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self)
        )
    }

    /// Runs a command that does not end by itself, until it has printed `lines` lines or `timeout` passed.
    static func runUntil(_ arguments: [String], executable: String, lines wanted: Int, timeout: Double) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        var text = ""
        let deadline = Date().addingTimeInterval(timeout)
        let fd = out.fileHandleForReading.fileDescriptor
        while Date() < deadline, text.split(separator: "\n").count < wanted {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) > 0 else { continue }
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        return text.split(separator: "\n").map(String.init)
    }
}
