import ArgumentParser

/// `orientd`: the orientation daemon and its offline tools.
@main
struct Orientd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "orientd",
        abstract: "Device and interface orientation for Linux tablets and convertibles.",
        version: OrientdVersion.string,
        subcommands: [Classify.self]
    )
}
