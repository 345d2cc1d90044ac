import ArgumentParser
import OrientPosix
import OrientProtocol

extension Orientctl {
    /// `orientctl watch --exec CMD`: run a command on each interface change (the rotation hook).
    struct Watch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a command whenever the interface orientation changes.",
            discussion: """
                The command runs through /bin/sh with ORIENTD_DEVICE, ORIENTD_INTERFACE, \
                ORIENTD_PREVIOUS_INTERFACE and ORIENTD_ROTATION in its environment: once at start (previous: \
                unknown) when the orientation is known, then on every change. The command runs to completion \
                before the next change is handled; changes that arrive meanwhile are handled in order afterwards.

                ORIENTD_ROTATION is how far to turn the picture on the panel, counter-clockwise: 0, 90, 180 or \
                270, right on portrait and landscape panels alike (what xrandr --rotate normal, left, inverted and \
                right do); empty while unknown.

                ORIENTD_POSTURE (laptop, tablet, ...), ORIENTD_TABLET_MODE (1, 0, or empty when unknown) and \
                ORIENTD_HINGE_ANGLE (whole degrees, or empty) give a convertible's posture, tablet mode and hinge \
                angle at the change; without a base sensor they are unknown, empty and empty.
                """
        )

        @OptionGroup var connection: ConnectionOptions
        @Option(help: "The command to run (through /bin/sh -c).") var exec: String
        @OptionGroup var settings: SubscriptionOptions

        func run() async throws {
            try await reportingErrors { try await watch(runningHook: runHook, subscribed: releaseStartupPages) }
        }

        /// The command's work: `hook` given each state the command is run for, with the interface orientation
        /// before it: once at start when the orientation is known, then at every change of it, until the daemon
        /// goes; `subscribed` is called once the start is handled.
        /// - Throws: ``ClientError``: the daemon not running (69) when it goes, as when it cannot be reached; or
        ///   what `hook` throws.
        func watch(
            runningHook hook: (_ state: ServerMessage, _ previous: String) throws -> Void, subscribed: () -> Void = {}
        ) async throws {
            try await DaemonClient.withConnection(path: connection.path) { client in
                let reply = try await client.request(.subscribe(settings.subscription(changes: .interface)))
                var previous = "unknown"
                if let interface = reply.interface, interface != "unknown" {
                    try hook(reply, previous)
                    previous = interface
                }
                subscribed()
                while let (_, message) = try await client.nextLine() {
                    guard message.event != nil, let interface = message.interface, interface != previous else { continue }
                    try hook(message, previous)
                    previous = interface
                }
                throw ClientError.notRunning(connection.path, "the daemon stopped")
            }
        }

        private func runHook(_ state: ServerMessage, previous: String) throws {
            let environment = ProcessEnvironment.current.merging(
                HookEnvironment.variables(state, previousInterface: previous)) { $1 }
            let exit: ChildExit
            do {
                exit = try runChildProcess(
                    "/bin/sh", arguments: ["/bin/sh", "-c", exec], environment: environment.map { "\($0)=\($1)" })
            } catch {
                throw ClientError(message: "cannot run /bin/sh: \(error)", status: ExitCode(71))
            }
            switch exit {
            case .exited(status: 0): break
            case .exited(let status): writeStandardError("orientctl: the command exited with status \(status)\n")
            case .killed(let signal): writeStandardError("orientctl: the command was killed by signal \(signal)\n")
            }
        }
    }
}
