// fanout-latency: how long a change takes from the sample entering orientd to the event line arriving at each
// subscriber, over the real Unix socket.
//
// It starts `orientd run --replay FIFO --speed max`, connects N subscribers, then writes the trace into the FIFO
// one sample line at a time, noting the monotonic time of each write. Every event carries `t`, the trace time of
// the sample that committed it, so each arrival is matched to the write of that sample. The subscribers are
// SwiftNIO channels on one event-loop thread: the figure includes their own reading, so it is an upper bound.
//
// Usage: fanout-latency ORIENTD TRACE [--subscribers 1,100,1000] [--interval-ms 2]

import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import OrientProtocol

struct Options {
    var orientd = ""
    var trace = ""
    var subscriberCounts = [1, 100, 1000]
    var intervalMilliseconds = 2.0

    init(_ arguments: [String]) {
        var positional: [String] = []
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--subscribers": subscriberCounts = (iterator.next() ?? "").split(separator: ",").compactMap { Int($0) }
            case "--interval-ms": intervalMilliseconds = Double(iterator.next() ?? "") ?? intervalMilliseconds
            default: positional.append(argument)
            }
        }
        guard positional.count == 2, !subscriberCounts.isEmpty else {
            FileHandle.standardError.write(Data("usage: fanout-latency ORIENTD TRACE [--subscribers 1,100,1000] [--interval-ms 2]\n".utf8))
            exit(64)
        }
        (orientd, trace) = (positional[0], positional[1])
    }
}

func monotonicNanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Trace time in whole microseconds: the key that matches an event's `t` to the sample line that carried it.
func timeKey(_ seconds: Double) -> Int64 { Int64((seconds * 1_000_000).rounded()) }

/// Every event arrival of every subscriber: (subscriber, trace time key, arrival time).
final class Arrivals: Sendable {
    private let records = NIOLockedValueBox<[(subscriber: Int, key: Int64, at: UInt64)]>([])
    private let replies = NIOLockedValueBox(0)

    func reply() { replies.withLockedValue { $0 += 1 } }
    var replyCount: Int { replies.withLockedValue { $0 } }
    func event(subscriber: Int, key: Int64, at time: UInt64) {
        records.withLockedValue { $0.append((subscriber, key, time)) }
    }
    var all: [(subscriber: Int, key: Int64, at: UInt64)] { records.withLockedValue { $0 } }
}

/// Notes the arrival time of each event line, before anything else is done with it.
final class ArrivalRecorder: ChannelInboundHandler, Sendable {
    typealias InboundIn = [UInt8]
    let subscriber: Int
    let arrivals: Arrivals

    init(subscriber: Int, arrivals: Arrivals) {
        self.subscriber = subscriber
        self.arrivals = arrivals
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let now = monotonicNanoseconds()
        let line = String(decoding: unwrapInboundIn(data), as: UTF8.self)
        if line.hasPrefix(#"{"ok":true"#) { arrivals.reply(); return }
        guard line.hasPrefix(#"{"event":"orientation""#), let range = line.range(of: #""t":"#) else { return }
        let digits = line[range.upperBound...].prefix { $0 != "," && $0 != "}" }
        if let t = Double(digits) { arrivals.event(subscriber: subscriber, key: timeKey(t), at: now) }
    }
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1)]
}

func waitUntil(_ what: String, timeout: Double = 20, _ condition: () -> Bool) {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() > deadline { fatalError("timed out waiting for \(what)") }
        usleep(10_000)
    }
}

func run(subscribers count: Int, options: Options, lines: [Substring], preamble: [Substring]) throws {
    let folder = NSTemporaryDirectory() + "orientd-latency-\(getpid())-\(count)"
    try? FileManager.default.removeItem(atPath: folder)
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let fifo = folder + "/samples", socketPath = folder + "/orientd.sock"
    guard mkfifo(fifo, 0o600) == 0 else { fatalError("mkfifo \(fifo): errno \(errno)") }

    let daemon = Process()
    daemon.executableURL = URL(fileURLWithPath: options.orientd)
    daemon.arguments = [
        "run", "--replay", fifo, "--speed", "max", "--sampling", "always", "--socket", socketPath,
        "--state-directory", folder + "/state", "--config", "/dev/null", "--max-clients", "\(count + 16)",
    ]
    daemon.standardOutput = FileHandle.nullDevice
    daemon.standardError = FileHandle.nullDevice
    try daemon.run()
    defer { daemon.terminate(); daemon.waitUntilExit() }

    // orientd reads the trace's preamble and its first sample before it listens, so those go first.
    let writer = open(fifo, O_WRONLY)
    guard writer >= 0 else { fatalError("open \(fifo): errno \(errno)") }
    defer { close(writer) }
    func send(_ line: Substring) {
        var text = String(line) + "\n"
        text.withUTF8 { bytes in _ = write(writer, bytes.baseAddress, bytes.count) }
    }
    preamble.forEach(send)
    waitUntil("the socket") { FileManager.default.fileExists(atPath: socketPath) }

    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    defer { try? group.syncShutdownGracefully() }
    let arrivals = Arrivals()
    var channels: [Channel] = []
    for subscriber in 0..<count {
        let channel = try ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineFrameDecoder(maximumLength: 4096)))
                    try channel.pipeline.syncOperations.addHandler(ArrivalRecorder(subscriber: subscriber, arrivals: arrivals))
                }
            }
            .connect(unixDomainSocketPath: socketPath).wait()
        channel.writeAndFlush(ByteBuffer(string: "{\"op\":\"subscribe\"}\n"), promise: nil)
        channels.append(channel)
    }
    waitUntil("\(count) subscribe replies") { arrivals.replyCount == count }

    var writeTimes: [Int64: UInt64] = [:]
    let interval = UInt32(options.intervalMilliseconds * 1000)
    for line in lines {
        guard let comma = line.firstIndex(of: ","), let t = Double(line[..<comma]) else { continue }
        writeTimes[timeKey(t)] = monotonicNanoseconds()
        send(line)
        usleep(interval)
    }
    usleep(500_000)  // the last events in flight
    for channel in channels { try? channel.close().wait() }

    let records = arrivals.all
    var perSubscriber = [Int](repeating: 0, count: count)
    var latencies: [Double] = []
    for record in records {
        perSubscriber[record.subscriber] += 1
        guard let written = writeTimes[record.key] else { continue }
        latencies.append(Double(record.at - written) / 1000)
    }
    latencies.sort()
    guard !latencies.isEmpty else { print("\(count) subscribers: no events arrived"); return }
    let line = [
        "\(count)", "\(perSubscriber.min()!)–\(perSubscriber.max()!)", "\(latencies.count)",
        String(format: "%.0f", percentile(latencies, 50)), String(format: "%.0f", percentile(latencies, 99)),
        String(format: "%.0f", latencies.last!),
    ].joined(separator: " | ")
    print("| \(line) |")
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
// One descriptor per subscriber: lift the soft open-file limit to the hard one.
var fileLimit = rlimit()
getrlimit(Int32(RLIMIT_NOFILE.rawValue), &fileLimit)
fileLimit.rlim_cur = fileLimit.rlim_max
setrlimit(Int32(RLIMIT_NOFILE.rawValue), &fileLimit)
let text = try String(contentsOfFile: options.trace, encoding: .utf8)
let allLines = text.split(separator: "\n")
let headerEnd = allLines.firstIndex { $0.hasPrefix("t,") }.map { $0 + 2 } ?? 1
print("| subscribers | events per subscriber | deliveries | p50 µs | p99 µs | max µs |")
print("|---|---|---|---|---|---|")
for count in options.subscriberCounts {
    try run(subscribers: count, options: options, lines: Array(allLines[headerEnd...]), preamble: Array(allLines[..<headerEnd]))
}
