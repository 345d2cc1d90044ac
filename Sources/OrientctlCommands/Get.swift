import ArgumentParser
import OrientProtocol

extension Orientctl {
    /// `orientctl get`: the current state, under the system mask or under this client's own settings.
    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the current orientation.",
            discussion: """
                Without --mask, --preferred or --no-autorotate the interface orientation is the one under the \
                system mask; with them, the one this client would see under its own settings. When the daemon \
                samples on demand and nobody subscribes, it opens the sensor for this request and answers with \
                what it reads (within about a second); --json shows "fresh": false when it could not. On a \
                convertible (when the daemon reports a posture) the posture, tablet mode and hinge angle follow. \
                --light and --proximity add those sensors' readings: the daemon opens a closed sensor for the request \
                and waits for its first reading as for the orientation.

                --json prints the daemon's reply as one JSON object on one line, without the request's ok and \
                id, every other field as the daemon sent it.
                """
        )

        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var settings: SubscriptionOptions
        @OptionGroup var readings: ReadingOptions
        @Flag(help: "Print the daemon's state as one line of JSON.") var json = false

        func run() async throws {
            try await reportingErrors { try await get(printingTo: &$0) }
        }

        /// The command's work: the daemon's answer to `output`, as text or as its JSON line.
        /// - Throws: ``ClientError`` when the daemon cannot be reached, refuses, or answers nonsense.
        func get(printingTo output: inout some TextOutputStream) async throws {
            // A reply may take a while: no read timeout is set, so a daemon that needs time to read
            // the sensor before answering is waited for.
            let request = Request.Operation.get(settings.given, readings: readings.asked)
            let (text, reply) = try await DaemonClient.withConnection(path: connection.path) { client in
                try await client.requestRaw(request)
            }
            output.writeLine(json ? StateText.json(reply: text) : StateText.human(reply))
        }
    }
}
