import ArgumentParser
import OrientProtocol

/// `orientctl`: the command-line client of orientd. Its entry points are the `orientctl` executable of a
/// development build and the release's one binary when run as orientctl (Sources/orientd/main.swift).
package struct Orientctl: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "orientctl",
        abstract: "Ask orientd for the orientation, follow it, or lock it.",
        discussion: whoObeys + "\n\n" + """
            Exit status: 0 success, 64 bad usage, 65 the daemon refused the request (bad or empty mask), \
            69 the daemon is not running, 77 permission denied, 70 an unexpected reply.
            """,
        version: OrientdVersion.string,
        subcommands: [Get.self, Monitor.self, Watch.self, Follow.self, Lock.self, Unlock.self, Mask.self, Status.self]
    )

    // Declared here too so that `orientctl --socket PATH get` works as well as `orientctl get --socket PATH`.
    @OptionGroup var connection: ConnectionOptions

    package init() {}

    /// Who obeys `lock` and `mask`, said the same way in the help, the manual, the README and docs/dbus.md.
    static let whoObeys = """
        The lock and the system mask (orientctl lock, unlock and mask) hold the interface orientation orientd \
        publishes on its socket: every socket client obeys them, each within its own --mask (orientctl follow on \
        sway, Hyprland and niri, watch, get and monitor, and any compositor or script on the socket). They do not \
        reach D-Bus: iio-sensor-proxy's AccelerometerOrientation is the device orientation, which a lock never \
        holds (as in iOS), and GNOME, KDE and Phosh turn the screen from it under their own rotation lock.
        """
}

/// Options every subcommand has.
struct ConnectionOptions: ParsableArguments {
    @Option(help: "The daemon's socket (default: $ORIENTD_SOCKET, else /run/orientd/orientd.sock).")
    var socket: String?

    var path: String { socket ?? Self.defaultPath }

    /// $ORIENTD_SOCKET, else /run/orientd/orientd.sock.
    static var defaultPath: String { environmentValue("ORIENTD_SOCKET") ?? "/run/orientd/orientd.sock" }
}
