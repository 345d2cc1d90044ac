import Logging
import ServiceLifecycle
import UnixSignals

/// Reloads the configuration on SIGHUP. A bad file is reported and the running configuration kept.
public struct ReloadService: Service {
    private let reload: @Sendable () async -> Void

    public init(reload: @escaping @Sendable () async -> Void) {
        self.reload = reload
    }

    public func run() async {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            await reload()
        }
    }
}
