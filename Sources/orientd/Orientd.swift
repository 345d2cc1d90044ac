import ArgumentParser
import OrientProtocol

/// `orientd`: the orientation daemon and its offline tools.
struct Orientd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "orientd",
        abstract: "Device and interface orientation for Linux tablets and convertibles.",
        discussion: """
            Files: /etc/orientd/orientd.conf (the configuration, see check-config), /run/orientd/orientd.sock \
            (the socket clients such as orientctl(1) use; PROTOCOL.md in the documentation describes it), \
            /var/lib/orientd/state.json (the rotation lock and the mask set at run time, kept across restarts).
            """,
        version: OrientdVersion.string,
        subcommands: [Run.self, Classify.self, Plot.self, Record.self, Doctor.self, Calibrate.self, CheckConfig.self]
    )
}
