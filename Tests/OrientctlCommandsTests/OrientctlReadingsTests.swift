import OrientCore
import OrientProtocol
import Testing

/// orientctl's --light and --proximity, in process against a stand-in daemon: the readings each command asks for,
/// and how it prints them. What the daemon sends (the last level at once, present false when unplugged) is tested
/// in Tests/OrientServerTests/PublishedReadingsTests.
@Suite("orientctl readings, in process")
struct OrientctlReadingsTests {
    private static let portrait = #""device":"portrait","interface":"portrait","locked":false,"mask":"all","sensor":"available","t":1"#
    private static let far = #"{"event":"proximity","present":true,"near":false}"#
    private static let near = #"{"event":"proximity","present":true,"near":true}"#
    private static let gone = #"{"event":"proximity","present":false,"near":null}"#

    /// A stand-in that answers a subscription with `portrait`, sends `events` as they are, and hangs up.
    private static func daemon(events: [String]) throws -> FakeDaemon {
        try FakeDaemon(hangUp: true) { id in (["{\"ok\":true,\"id\":\(id),\(portrait)}"] + events).joined(separator: "\n") }
    }

    @Test("monitor --proximity subscribes for proximity and prints each of its events: far, near, and none once unplugged")
    func monitorProximity() async throws {
        let daemon = try Self.daemon(events: [Self.far, Self.near, Self.gone])
        let monitor = await InProcessOrientctl.run(["monitor", "--proximity", "--socket", daemon.path])
        #expect(try OrientctlSettingsTests.request(daemon) == .subscribe(SubscriptionSettings(), readings: [.proximity]))
        #expect(monitor.stdout.split(separator: "\n").dropFirst() == ["proximity far", "proximity near", "proximity none"], "\(monitor.stdout)")

        let json = try Self.daemon(events: [Self.near, Self.gone])
        let printed = await InProcessOrientctl.run(["monitor", "--proximity", "--json", "--socket", json.path])
        #expect(printed.stdout.split(separator: "\n").dropFirst() == [Substring(Self.near), Substring(Self.gone)], "events as sent")
    }

    @Test("get --light --proximity asks for both and prints a line for each after the orientation; get alone asks for none")
    func getReadings() async throws {
        let daemon = try FakeDaemon(hangUp: true) { id in
            "{\"ok\":true,\"id\":\(id),\(Self.portrait),\"fresh\":true,"
                + #""light":{"present":true,"level":30,"unit":"lux"},"proximity":{"present":true,"near":false}}"#
        }
        let get = await InProcessOrientctl.run(["get", "--light", "--proximity", "--socket", daemon.path])
        #expect(try OrientctlSettingsTests.request(daemon) == .get(nil, readings: [.light, .proximity]))
        #expect(get.stdout.hasSuffix("\nlight: 30 lux\nproximity: far\n"), "\(get.stdout)")

        let plain = try FakeDaemon(state: Self.portrait)
        _ = await InProcessOrientctl.run(["get", "--socket", plain.path])
        #expect(try OrientctlSettingsTests.request(plain) == .get(nil, readings: []))
    }
}
