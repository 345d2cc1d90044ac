import Foundation
import Testing

/// The integration suites skip themselves where umockdev, the private bus, the service user or iio-sensor-proxy's
/// daemon are missing, so
/// that `swift test` runs on a bare machine. In CI (`CI` set, as .ci/run does) a skip would hide a whole suite:
/// there, each missing prerequisite is a failure naming what to install.
@Suite("Test prerequisites in CI", .enabled(if: ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } ?? false))
struct TestPrerequisitesTests {
    @Test("umockdev's preload library, its introspection data and python3-gi are installed")
    func umockdev() {
        #expect(UmockdevTestbed.preloadLibrary != nil, "libumockdev-preload.so.0 is not in the loader's cache (ldconfig -p)")
        #expect(UmockdevTestbed.isAvailable, "\(UmockdevTestbed.skipReason)")
    }

    @Test("dbus-daemon, busctl, monitor-sensor and python3-dbusmock are installed")
    func privateBus() {
        #expect(PrivateBus.isAvailable, "\(PrivateBus.skipReason)")
    }

    @Test("The tests run as root and the orientd user exists")
    func serviceUser() {
        #expect(ServiceUser.isAvailable, "\(ServiceUser.skipReason)")
    }

    @Test("sway is installed and the tests run as root (orientctl follow's tests run it as nobody)")
    func sway() {
        #expect(HeadlessSway.isAvailable, "\(HeadlessSway.skipReason)")
    }

    @Test("iio-sensor-proxy's daemon is installed (the side-by-side suites run it beside orientd, never as a service)")
    func sensorProxyDaemon() {
        #expect(FileManager.default.isExecutableFile(atPath: SideBySideBench.sensorProxyDaemon), "install iio-sensor-proxy")
    }

    @Test("gdbus is installed (the D-Bus tests read signals with its monitor)")
    func gdbus() {
        #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/gdbus"), "install libglib2.0-bin")
    }

    @Test("strace is installed (the state file's system-call tests)")
    func strace() {
        #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"), "install strace")
    }
}
