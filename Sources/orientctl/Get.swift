import ArgumentParser

extension Orientctl {
    /// `orientctl get`: the current state, under the system mask or under this client's own settings.
    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the current orientation.",
            discussion: """
                Without --mask, --preferred or --no-autorotate, this asks the daemon for the state under the \
                system mask (the protocol's get). The protocol's get has no settings of its own, so with any of \
                them orientctl subscribes with those settings, prints the state in the daemon's reply (the \
                interface orientation resolved for this client, as monitor's first line shows it), and closes \
                the connection.

                --json prints the daemon's reply as one JSON object on one line, without the request's ok and \
                id, every other field as the daemon sent it.
                """
        )

        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var settings: SubscriptionOptions
        @Flag(help: "Print the daemon's state as one line of JSON.") var json = false

        func run() async throws {
            try await reportingErrors {
                // A reply may take a while: no read timeout is set, so a daemon that needs time to read
                // the sensor before answering is waited for.
                let request = settings.isEmpty ? "\"op\":\"get\"" : settings.subscribeFields()
                let (text, reply) = try await DaemonClient.withConnection(path: connection.path) { client in
                    try await client.requestRaw(request)
                }
                printLine(json ? StateText.json(reply: text) : StateText.human(reply))
            }
        }
    }
}
