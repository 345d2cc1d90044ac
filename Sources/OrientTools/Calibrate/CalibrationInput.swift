import OrientPosix
import OrientSampleSource
import OrientSensors

#if canImport(Glibc)
import Glibc
#endif

/// Everything the session waits on, in one stream: both sensors' events, Enter, and Ctrl-C.
enum CalibrationInput: Sendable {
    case display(SensorEvent)
    case base(SensorEvent)
    case enter
    /// SIGINT or SIGTERM.
    case interrupted(Int32)

    /// Merges the sources' events, Enter (each line `readLines` reports, when `readsEnter`) and `signals`.
    /// Cancelling the returned stream's consumer stops the captures.
    static func merged(
        display: some SampleSource, base: (some SampleSource)?, signals: AsyncStream<Int32>, readsEnter: Bool,
        readLines: (@escaping @Sendable () -> Void) -> Void
    ) -> AsyncStream<CalibrationInput> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: CalibrationInput.self, bufferingPolicy: .bufferingNewest(4096))
        let displayEvents = display.events()
        let baseEvents = base?.events()
        let tasks = [
            Task {
                for await event in displayEvents { continuation.yield(.display(event)) }
            },
            Task {
                guard let baseEvents else { return }
                for await event in baseEvents { continuation.yield(.base(event)) }
            },
            Task {
                for await signal in signals { continuation.yield(.interrupted(signal)) }
            },
        ]
        if readsEnter { readLines { continuation.yield(.enter) } }
        continuation.onTermination = { _ in
            for task in tasks { task.cancel() }
        }
        return stream
    }

    /// Calls `line` for each line typed on standard input, from a thread of its own (a blocking read). The thread
    /// ends at end of file; otherwise the process's exit ends it.
    static func readStandardInput(_ line: @escaping @Sendable () -> Void) {
        startThread(name: "orientd-enter") {
            var byte: UInt8 = 0
            while read(0, &byte, 1) == 1 {
                if byte == UInt8(ascii: "\n") { line() }
            }
        }
    }
}
