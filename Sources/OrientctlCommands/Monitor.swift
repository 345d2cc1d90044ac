import ArgumentParser
import OrientProtocol

extension Orientctl {
    /// `orientctl monitor`: subscribe and print every change until interrupted.
    struct Monitor: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print every orientation change as it happens.",
            discussion: """
                The first line is the state when the subscription starts, then one line per change. On a \
                convertible (when the daemon reports a posture) each line also shows the posture, tablet mode and \
                hinge angle, and a hinge being moved prints a line per degree. With --light or --proximity, a line \
                follows for each new reading of those sensors (the last one known at once), and one when the \
                sensor goes away. --json \
                prints each as one JSON object on one line: the subscription's reply without the request's ok \
                and id, then the daemon's events as it sent them.
                """
        )

        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var settings: SubscriptionOptions
        @OptionGroup var readings: ReadingOptions
        @Flag(help: "Print the daemon's states as JSON lines.") var json = false
        @Flag(help: "Only print changes of the interface orientation.") var interfaceOnly = false

        func run() async throws {
            try await reportingErrors { try await monitor(printingTo: &$0, subscribed: releaseStartupPages) }
        }

        /// The command's work: the subscription's state, then each event, a line each to `output`, until the
        /// daemon goes; `subscribed` is called once the first line is out.
        /// - Throws: ``ClientError``: the daemon not running (69) when it goes, as when it cannot be reached.
        func monitor(printingTo output: inout some TextOutputStream, subscribed: () -> Void = {}) async throws {
            try await DaemonClient.withConnection(path: connection.path) { client in
                let (text, reply) = try await client.requestRaw(
                    .subscribe(settings.subscription(changes: interfaceOnly ? .interface : .all), readings: readings.asked))
                output.writeLine(json ? StateText.json(reply: text) : StateText.humanEvent(reply))
                subscribed()
                var sensor = reply.sensor
                while let (text, message) = try await client.nextLine() {
                    guard message.event != nil else { continue }
                    output.writeLine(json ? text : StateText.humanEvent(message, sensorBefore: sensor))
                    sensor = message.sensor ?? sensor
                }
                throw ClientError.notRunning(connection.path, "the daemon stopped")
            }
        }
    }
}
