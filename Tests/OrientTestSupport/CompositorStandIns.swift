import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A Unix socket server run on threads: each accepted connection is handed to `serve` on a thread of its own.
public final class StandInListener: @unchecked Sendable {
    public let path: String
    private let listener: Int32
    private let lock = NSLock()
    private var connections: [Int32] = []
    private var stopped = false
    private var acceptedCount = 0

    /// How many connections it accepted.
    public var accepted: Int { lock.withLock { acceptedCount } }

    public init(path: String, serve: @escaping @Sendable (Int32) -> Void) throws {
        self.path = path
        let listener = try Self.listeningSocket(path, backlog: 16)
        self.listener = listener
        Thread.detachNewThread { [self] in
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                lock.withLock {
                    connections.append(connection)
                    acceptedCount += 1
                }
                Thread.detachNewThread {
                    serve(connection)
                    self.lock.withLock { self.connections.removeAll { $0 == connection } }
                    Glibc.close(connection)
                }
            }
        }
    }

    /// Stops as a compositor that exits: the listener goes, every connection is hung up, the socket file removed.
    public func stop() {
        // Once only: the descriptor's number may belong to another socket afterwards.
        guard
            !lock.withLock({
                defer { stopped = true }
                return stopped
            })
        else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
        lock.withLock { for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) } }
        unlink(path)
    }

    public static func readLine(_ fd: Int32) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            guard read(fd, &byte, 1) == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }

    public static func readToEnd(_ fd: Int32) -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return String(decoding: bytes, as: UTF8.self) }
            bytes += chunk[0..<n]
        }
    }

    public static func write(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// A Unix stream socket bound to `path` and listening.
    static func listeningSocket(_ path: String, backlog: Int32) throws -> Int32 {
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard path.utf8.count < MemoryLayout.size(ofValue: address.sun_path) else {
            Glibc.close(listener)
            throw StandInError("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(listener, backlog) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(listener)
            throw StandInError("cannot listen on \(path): \(reason)")
        }
        return listener
    }
}

/// A stand-in that could not start.
public struct StandInError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// What a stand-in was asked, and the settings it made, for the tests to check.
public final class RecordedRequests: @unchecked Sendable {
    private let lock = NSLock()
    private var requests: [String] = []
    private var transforms: [String: String] = [:]
    private var settings: [String: [String]] = [:]

    public func record(_ request: String) { lock.withLock { requests.append(request) } }
    public var all: [String] { lock.withLock { requests } }
    public func transform(of output: String) -> String? { lock.withLock { transforms[output] } }
    public func setTransform(_ value: String, of output: String) { lock.withLock { transforms[output] = value } }
    /// Every value a setting (named as in hyprland.conf: `input:touchdevice:transform`) was given, in order.
    public func history(of setting: String) -> [String] { lock.withLock { settings[setting] ?? [] } }
    public func set(_ setting: String, to value: String) { lock.withLock { settings[setting, default: []].append(value) } }
}

/// Hyprland's two sockets as wiki.hypr.land/IPC describes them: `.socket.sock` takes one `[flags]/command args`
/// request per connection, answers and closes (`j/monitors` in JSON as hyprctl -j prints it); `.socket2.sock`
/// streams `EVENT>>DATA` lines and is closed when Hyprland exits. Changes are answered as each configuration
/// answers them (Hyprland's HyprCtl.cpp): `ok`, or the refusal of the other configuration's request.
public final class HyprlandStandIn {
    public enum Configuration: String, CaseIterable, Sendable {
        /// Hyprland 0.54 and earlier: no `status` and no `eval` ("unknown request"); changes through `keyword`.
        case hyprlangBefore055
        /// 0.55 and later with `hyprland.conf`: `status` reports hyprlang, and `eval` is refused.
        case hyprlang
        /// 0.55 and later with `hyprland.lua`: `status` reports lua, and `keyword` is refused.
        case lua

        /// The end of the line follow prints when it connects.
        public var summary: String {
            self == .lua ? "Lua configuration: eval requests" : "hyprlang configuration: keyword requests"
        }
    }

    static let evalRefusal = "eval is only supported with the lua config manager"
    static let keywordRefusal = "keyword can't work with non-legacy parsers. Use eval."

    /// The request that turns the stand-in's eDP-1 (mode, place and scale as its `j/monitors` lists it, second in
    /// the list), in the configuration's terms.
    public static func monitorRequest(_ configuration: Configuration, transform: String) -> String {
        configuration == .lua
            ? #"/eval hl.monitor({ output = "eDP-1", mode = "2880x1800@90.001", position = "2880x0", scale = 1.5, "#
                + "transform = \(transform) })"
            : "/keyword monitor eDP-1,2880x1800@90.001,2880x0,1.5,transform,\(transform)"
    }

    public let signature: String
    public let requests = RecordedRequests()
    private var listeners: [StandInListener] = []

    public init(runtime: String, signature: String, monitors: [String], configuration: Configuration) throws {
        self.signature = signature
        let folder = runtime + "/hypr/" + signature
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in monitors { requests.setTransform("0", of: name) }
        let requests = requests
        listeners.append(
            try StandInListener(path: folder + "/.socket.sock") { fd in
                let request = StandInListener.readToEnd(fd)
                requests.record(request)
                StandInListener.write(
                    fd, Self.answer(request, monitors: monitors, configuration: configuration, requests: requests))
            })
        listeners.append(
            try StandInListener(path: folder + "/.socket2.sock") { fd in
                StandInListener.write(fd, "monitoradded>>\(monitors[0])\n")
                _ = StandInListener.readToEnd(fd)
            })
    }

    private static func answer(
        _ request: String, monitors: [String], configuration: Configuration, requests: RecordedRequests
    ) -> String {
        // Flags are what comes before a '/' that precedes the first space.
        let slash = request.firstIndex(of: "/")
        let space = request.firstIndex(of: " ")
        var flags = Substring("")
        var command = Substring(request)
        if let slash, space == nil || slash < space! {
            flags = request[..<slash]
            command = request[request.index(after: slash)...]
        }
        switch command.prefix(while: { $0 != " " }) {
        case "monitors":
            let list = monitors.enumerated().map { index, name in
                """
                {"id": \(index), "name": "\(name)", "description": "Stand-in \(name)", "make": "Stand-in", \
                "model": "\(name)", \
                "serial": "", "width": 2880, "height": 1800, "refreshRate": 90.00100, "x": \(index * 2880), "y": 0, \
                "activeWorkspace": {"id": 1, "name": "1"}, "reserved": [0, 0, 0, 0], "scale": 1.50, \
                "transform": \(requests.transform(of: name) ?? "0"), "focused": \(index == 0), "dpmsStatus": true, \
                "vrr": false, "disabled": false, "currentFormat": "XRGB8888", "mirrorOf": "none"}
                """
            }
            return flags.contains("j") ? "[" + list.joined(separator: ",") + "]" : "unsupported without j"
        case "status" where configuration != .hyprlangBefore055:
            let provider = configuration == .lua ? "lua" : "hyprlang"
            return flags.contains("j")
                ? "\n{\n    \"configProvider\": \"\(provider)\",\n    \"backend\": \"drm\"\n}\n"
                : "\nconfigProvider: \(provider)\nbackend: drm\n"
        case "eval" where configuration == .hyprlang:
            return evalRefusal
        case "eval" where configuration == .lua:
            return eval(String(command.dropFirst(5)), monitors: monitors, requests: requests)
        case "keyword" where configuration == .lua:
            return keywordRefusal
        case "keyword":
            return keyword(String(command.dropFirst(8)), monitors: monitors, requests: requests)
        default:
            return "unknown request"
        }
    }

    /// `NAME VALUE`: a monitor rule `name,mode,position,scale,transform,N`, or one setting.
    private static func keyword(_ text: String, monitors: [String], requests: RecordedRequests) -> String {
        guard let space = text.firstIndex(of: " ") else { return "Invalid input: no space found" }
        let name = String(text[..<space])
        let value = String(text[text.index(after: space)...])
        if name == "monitor" {
            let rule = value.split(separator: ",").map(String.init)
            guard rule.count == 6, rule[4] == "transform", let transform = Int(rule[5]), (0...7).contains(transform)
            else { return "invalid monitor rule \(value)" }
            if monitors.contains(rule[0]) { requests.setTransform(rule[5], of: rule[0]) }
            return "ok"
        }
        let known = ["input:touchdevice:transform", "input:touchdevice:output", "input:tablet:transform",
            "input:tablet:output"]
        let device = name.hasPrefix("device[") && name.hasSuffix("]:enabled")
        guard known.contains(name) || device else { return "config option <\(name)> does not exist." }
        guard !device || ["true", "false"].contains(value) else { return "invalid value \(value) for \(name)" }
        requests.set(name, to: value)
        return "ok"
    }

    /// Lua calling `hl.monitor`, `hl.config` (touch and tablet settings) or `hl.device`; settings are recorded
    /// under their hyprland.conf names, so that both configurations are checked alike.
    private static func eval(_ lua: String, monitors: [String], requests: RecordedRequests) -> String {
        if lua.hasPrefix("hl.monitor({"), let output = field("output", in: lua),
            let transform = field("transform", in: lua)
        {
            guard monitors.contains(output) else { return "no such monitor" }
            requests.setTransform(transform, of: output)
            return "ok"
        }
        for section in ["touchdevice", "tablet"] where lua.hasPrefix("hl.config({ input = { \(section) = {") {
            guard let transform = field("transform", in: lua), let output = field("output", in: lua) else {
                return "lua error"
            }
            requests.set("input:\(section):transform", to: transform)
            requests.set("input:\(section):output", to: output)
            return "ok"
        }
        if lua.hasPrefix("hl.device({"), let name = field("name", in: lua), let enabled = field("enabled", in: lua) {
            requests.set("device[\(name)]:enabled", to: enabled)
            return "ok"
        }
        return "lua error"
    }

    /// `key = "value"` or `key = value` in a Lua table constructor.
    private static func field(_ key: String, in lua: String) -> String? {
        guard let range = lua.range(of: " " + key + " = ") else { return nil }
        var rest = lua[range.upperBound...]
        if rest.first == "\"" {
            rest = rest.dropFirst()
            return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
        }
        let value = rest.prefix { $0.isLetter || $0.isNumber }
        return value.isEmpty ? nil : String(value)
    }

    public func stop() { for listener in listeners { listener.stop() } }
    deinit { stop() }
}

/// niri's socket as niri-ipc documents it: a JSON request per line, a JSON reply per line (`{"Ok":…}` or
/// `{"Err":"…"}`), serde's spelling of niri's types.
public final class NiriStandIn {
    public let path: String
    public let requests = RecordedRequests()
    private var listener: StandInListener?
    public static let transforms = ["Normal", "90", "180", "270", "Flipped", "Flipped90", "Flipped180", "Flipped270"]

    public init(path: String, outputs: [String]) throws {
        self.path = path
        for name in outputs { requests.setTransform("Normal", of: name) }
        let requests = requests
        listener = try StandInListener(path: path) { fd in
            while let line = StandInListener.readLine(fd) {
                requests.record(line)
                StandInListener.write(fd, Self.answer(line, outputs: outputs, requests: requests) + "\n")
            }
        }
    }

    private static func answer(_ line: String, outputs: [String], requests: RecordedRequests) -> String {
        guard let request = try? JSONSerialization.jsonObject(with: Data(line.utf8), options: .fragmentsAllowed) else {
            return #"{"Err":"error parsing request"}"#
        }
        if request as? String == "Outputs" {
            let members = outputs.map { name in
                """
                "\(name)":{"name":"\(name)","make":"Stand-in","model":"\(name)","serial":null,\
                "physical_size":[300,190],\
                "modes":[{"width":2880,"height":1800,"refresh_rate":90001,"is_preferred":true}],"current_mode":0,\
                "is_custom_mode":false,"vrr_supported":false,"vrr_enabled":false,"logical":{"x":0,"y":0,"width":1920,\
                "height":1200,"scale":1.5,"transform":"\(requests.transform(of: name) ?? "Normal")"}}
                """
            }
            return #"{"Ok":{"Outputs":{"# + members.joined(separator: ",") + "}}}"
        }
        guard let object = request as? [String: Any], object.count == 1,
            let output = object["Output"] as? [String: Any],
            let name = output["output"] as? String, let action = output["action"] as? [String: Any],
            let transform = (action["Transform"] as? [String: Any])?["transform"] as? String,
            transforms.contains(transform)
        else { return #"{"Err":"error parsing request"}"# }
        guard outputs.contains(name) else { return #"{"Ok":{"OutputConfigChanged":"OutputWasMissing"}}"# }
        requests.setTransform(transform, of: name)
        return #"{"Ok":{"OutputConfigChanged":"Applied"}}"#
    }

    /// How many connections it accepted: follow keeps one open.
    public var connections: Int { listener?.accepted ?? 0 }

    public func stop() { listener?.stop() }
    deinit { stop() }
}
