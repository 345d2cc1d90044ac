import ArgumentParser

/// `orientd`: the orientation daemon and its offline tools.
struct Orientd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "orientd",
        abstract: "Device and interface orientation for Linux tablets and convertibles.",
        version: OrientdVersion.string,
        subcommands: [Run.self, Classify.self, Plot.self, Record.self, Doctor.self, CheckConfig.self]
    )
}
