import Foundation

/// python-dbusmock's polkitd allowing the sensor claims and refusing every other action
/// (`Tests/OrientdTests/Fixtures/polkitd_claims.py`), D-Bus activated on a test's private bus at the first question,
/// as polkitd is on a real system. The daemon's tests and the facade's tests start it this one way.
public enum PolkitMock {
    /// python-dbusmock's own polkitd template, which the fixture extends: where it is missing, so is python-dbusmock.
    public static let dbusmockTemplate = "/usr/lib/python3/dist-packages/dbusmock/templates/polkitd.py"

    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../OrientdTests/Fixtures/polkitd_claims.py").standardized.path

    /// Writes the `.service` file that activates the mock on the bus at `address` into `folder`/services, and returns
    /// that folder for the bus configuration's `<servicedir>`.
    public static func serviceFolder(in folder: String, busAddress address: String) throws -> String {
        let services = folder + "/services"
        try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
        try """
            [D-BUS Service]
            Name=org.freedesktop.PolicyKit1
            Exec=/usr/bin/env DBUS_SYSTEM_BUS_ADDRESS=\(address) /usr/bin/python3 -m dbusmock --system --template \(fixture)

            """.write(toFile: services + "/org.freedesktop.PolicyKit1.service", atomically: true, encoding: .utf8)
        return services
    }
}
