import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The shipped D-Bus policy on a bus that denies as the system bus does and includes the policy file: as in
/// iio-sensor-proxy 3.7 and later, any user may call both objects, the compass's included, and polkit decides each
/// claim with the same action (`net.hadess.SensorProxy.claim-sensor`). Needs root to switch users (setpriv).
@Suite(
    "The compass in the shipped D-Bus policy and polkit", .serialized,
    .enabled(if: ServiceUser.isAvailable, Comment(rawValue: ServiceUser.skipReason)))
struct CompassPolicyTests {
    private func client(as user: [String], _ bus: PrivateBus) throws -> LineProcess {
        let client = try LineProcess(
            user[0], Array(user.dropFirst()) + [UmockdevTestbed.python, DBusFacadeTests.clientScript], environment: bus.environment)
        guard client.waitForLine({ $0.hasPrefix("ready") }) != nil else { throw HarnessError("bus_client.py did not start") }
        return client
    }

    @Test("Any user may call the compass as the main object; polkit allowing, its claim succeeds, and refusing, it is refused with the others")
    func compassUnderPolkit() throws {
        let folder = try DaemonHarness.makeFolder()
        chmod(folder, 0o777)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bus = try PrivateBus(folder: folder, policyFile: ServiceUserTests.systemdFolder + "/orientd-dbus.conf")
        let daemon = try DaemonHarness(
            ["--dbus", "--replay", DBusFacadeTests.demoTrace, "--loop"], folder: folder, wrapper: ServiceUserTests.asServiceUser,
            environment: bus.environment)
        try daemon.waitUntilListening()
        #expect(waitFor { bus.property("HasAccelerometer") == "b true" }, "\(daemon.log)")

        let stranger = try client(as: ServiceUserTests.asNobody, bus)
        #expect(stranger.ask("claim-compass") == "ok", "the shipped polkit action allows it (the test's polkit does)")
        #expect(stranger.ask("compass-get HasCompass") == "value False", "no compass in a replay")
        #expect(stranger.ask("release-compass") == "ok")
        #expect(stranger.ask("claim") == "ok")
        #expect(stranger.ask("ping") == "ok")

        let refuse = bus.busctl([
            "call", "org.freedesktop.PolicyKit1", "/org/freedesktop/PolicyKit1/Authority", "org.freedesktop.DBus.Mock",
            "SetAllowed", "as", "0",
        ])
        #expect(refuse.status == 0, "\(refuse.stderr)")
        for claim in ["claim-compass", "claim-light"] {
            let refused = stranger.ask(claim)
            #expect(refused?.contains("AccessDenied: Not Authorized: Sensor claim not allowed") == true, "\(claim): \(refused ?? "nothing")")
        }
        #expect(stranger.ask("compass-get HasCompass") == "value False", "properties are read without polkit")
        stranger.kill()
    }
}
