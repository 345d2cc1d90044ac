import Foundation
import Testing

/// The daemon with a sensor present and nobody listening must not wake at all: no sensor reads, no timers,
/// no thread of libdispatch's pool (whose monitor would wake it every second).
@Suite(
    "Idle daemon", .serialized,
    .enabled(if: PrivateBus.isAvailable, Comment(rawValue: PrivateBus.skipReason)),
    .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct IdleWakeupTests {
    /// Context switches of each thread, by name and id, from /proc/PID/task/*/status.
    static func switches(_ pid: Int32) -> [String: Int] {
        var result: [String: Int] = [:]
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for tid in tasks {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/status", encoding: .utf8) else { continue }
            var name = tid
            var count = 0
            for line in status.split(separator: "\n") {
                if line.hasPrefix("Name:") { name = line.dropFirst(5).trimmingCharacters(in: .whitespaces) }
                if line.hasSuffix("ctxt_switches:") == false, line.contains("ctxt_switches:") {
                    count += Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
            result["\(name) (\(tid))"] = count
        }
        return result
    }

    /// Whether every thread of `pid` is asleep (state S in /proc/PID/task/TID/stat), i.e. blocked until woken.
    static func allAsleep(_ pid: Int32) -> Bool {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return !tasks.isEmpty && tasks.allSatisfy { tid in
            // The state follows the parenthesised name, which may itself hold spaces or parentheses.
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("S")
        }
    }

    @Test("An accelerometer, a light and a proximity sensor, the D-Bus facade on, no claim left: no thread wakes in 3 s, and no libdispatch thread exists")
    func noWakeups() throws {
        let setup = try LightSensorTests.Setup()
        _ = try setup.testbed.addDevice(
            "iio:device2", attributes: ProximitySensorTests.proximityAttributes.merging(["in_proximity_raw": "150"]) { $1 },
            properties: ProximitySensorTests.proximityProperties)
        try setup.startOrientd()
        // Start-up is over once the D-Bus thread has answered a ping: the bus delivers in order, so it has read
        // every NameOwnerChanged before (busctl's comings and goings above). This client stays on the bus for the
        // whole count, so that its own leaving does not fall inside it. It claims the light and proximity sensors
        // and releases them first: a closed sensor leaves nothing behind that wakes.
        let client = try setup.client()
        #expect(client.ask("claim-light") == "ok")
        #expect(waitFor { setup.bus.property("LightLevel") == "d 50" })
        #expect(client.ask("release-light") == "ok")
        #expect(waitFor { setup.lightThreads() == 0 })
        #expect(client.ask("claim-proximity") == "ok")
        #expect(waitFor { setup.bus.property("ProximityNear") == "b true" })
        #expect(client.ask("release-proximity") == "ok")
        #expect(waitFor { ProximitySensorTests.proximityThreads(of: setup.daemon) == 0 })
        #expect(client.ask("ping") == "ok")
        let pid = setup.daemon.process.processIdentifier
        // Every thread blocked again, the D-Bus one too after writing its reply.
        #expect(waitFor { Self.allAsleep(pid) }, "threads still running: \(Self.switches(pid).keys.sorted())")
        let before = Self.switches(pid)
        // A window, not a wait: whatever would wake the daemon (a timer, a poll with a timeout) must show in it.
        usleep(3_000_000)
        let after = Self.switches(pid)
        let woke = after.compactMap { thread, count in count > (before[thread] ?? 0) ? "\(thread): \(count - (before[thread] ?? 0))" : nil }
        #expect(woke.isEmpty, "threads that woke: \(woke); all: \(after.keys.sorted())")
        #expect(!after.keys.contains { $0.contains("qos") }, "libdispatch worker threads: \(after.keys.sorted())")
        #expect(after.keys.contains { $0.hasPrefix("orientd-dbus") })
        // One udev hub for the accelerometer's, the light's, the proximity's and the compass's presence and the panel
        // (issue 37): it had a thread, and a monitor, for each.
        #expect(after.keys.filter { $0.hasPrefix("orientd-udev") }.count == 1, "\(after.keys.sorted())")
        #expect(!after.keys.contains { $0.hasPrefix("orientd-panel") }, "\(after.keys.sorted())")
        client.kill()
    }
}

/// A replay paced in real time waits on the daemon's event loop: Task.sleep would start libdispatch's pool, whose
/// threads each take a stack and a heap arena, and whose monitor then wakes the process every second.
@Suite("Replay pacing")
struct ReplayPacingThreadTests {
    @Test("A replay at real speed, with a subscriber, starts no libdispatch thread")
    func noDispatchThreads() throws {
        let daemon = try DaemonHarness(["--replay", DBusFacadeTests.demoTrace, "--loop", "--sampling", "always"])
        try daemon.waitUntilListening()
        let subscriber = try LineClient(path: daemon.socket)
        #expect(subscriber.request(#""op":"subscribe""#)?.ok == true)
        // The replay has slept between batches (40 ms apart) a few dozen times by now.
        usleep(1_500_000)
        let threads = IdleWakeupTests.switches(daemon.process.processIdentifier).keys.sorted()
        #expect(threads.contains { $0.hasPrefix("NIO-") }, "the listing works: \(threads)")
        #expect(!threads.contains { $0.contains("qos") }, "libdispatch worker threads: \(threads)")
        subscriber.close()
    }
}
