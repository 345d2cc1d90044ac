import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The shipped D-Bus policy's compass rules, on a bus that denies as the system bus does and includes the policy
/// file: a heading helps locate a person, so only the `geoclue` user may call the Compass object or read its
/// properties; everyone may use the main object. Needs root to switch users (setpriv) and, when the machine has no
/// `geoclue` user, to add one for the test (removed at its end).
@Suite(
    "The compass in the shipped D-Bus policy", .serialized,
    .enabled(if: ServiceUser.isAvailable, Comment(rawValue: ServiceUser.skipReason)))
struct CompassPolicyTests {
    /// Runs `body` with a `geoclue` user: the machine's, or one added now and removed after.
    private func withGeoclueUser(_ body: () throws -> Void) throws {
        let added = getpwnam("geoclue") == nil
        if added {
            let result = try OrientdProcess.run(
                ["--system", "--no-create-home", "--user-group", "--shell", "/usr/sbin/nologin", "geoclue"],
                executable: "/usr/sbin/useradd")
            guard result.status == 0 else { throw HarnessError("useradd geoclue: \(result.stderr)") }
        }
        defer { if added { _ = try? OrientdProcess.run(["geoclue"], executable: "/usr/sbin/userdel") } }
        try body()
    }

    private func client(as user: [String], _ bus: PrivateBus) throws -> LineProcess {
        let client = try LineProcess(
            user[0], Array(user.dropFirst()) + [UmockdevTestbed.python, DBusFacadeTests.clientScript], environment: bus.environment)
        guard client.waitForLine({ $0.hasPrefix("ready") }) != nil else { throw HarnessError("bus_client.py did not start") }
        return client
    }

    @Test("A user other than geoclue is refused the Compass interface and its properties, and may use the main object; geoclue may use both")
    func onlyGeoclue() throws {
        try withGeoclueUser {
            let folder = try DaemonHarness.makeFolder()
            chmod(folder, 0o777)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            // The bus reads the policy's users when it starts: geoclue exists by now.
            let bus = try PrivateBus(folder: folder, policyFile: ServiceUserTests.systemdFolder + "/orientd-dbus.conf")
            let daemon = try DaemonHarness(
                ["--dbus", "--replay", DBusFacadeTests.demoTrace, "--loop"], folder: folder, wrapper: ServiceUserTests.asServiceUser,
                environment: bus.environment)
            try daemon.waitUntilListening()
            #expect(waitFor { bus.property("HasAccelerometer") == "b true" }, "\(daemon.log)")

            let stranger = try client(as: ServiceUserTests.asNobody, bus)
            let refused = stranger.ask("claim-compass")
            #expect(refused?.hasPrefix("error") == true && refused?.contains("AccessDenied") == true, "\(refused ?? "nothing")")
            let unread = stranger.ask("compass-get HasCompass")
            #expect(unread?.contains("AccessDenied") == true, "the compass's properties too: \(unread ?? "nothing")")
            #expect(stranger.ask("claim") == "ok", "the main object is anyone's")
            #expect(stranger.ask("claim-light") == "ok")
            #expect(stranger.ask("ping") == "ok")

            let geoclue = try client(as: ["/usr/bin/setpriv", "--reuid=geoclue", "--regid=geoclue", "--clear-groups"], bus)
            #expect(geoclue.ask("claim-compass") == "ok")
            #expect(geoclue.ask("compass-get HasCompass") == "value False", "no compass in a replay")
            #expect(geoclue.ask("release-compass") == "ok")
            #expect(geoclue.ask("claim") == "ok")
            stranger.kill()
            geoclue.kill()
        }
    }
}
