import OrientSensors
import Synchronization

/// A replay's clock that moves only when the replay sleeps, and by exactly what it asked: each sleep returns at
/// once, recorded, so the replay's pacing is seen as it decides it, whatever the machine's load.
final class SteppedClock: Sendable {
    private struct State {
        var elapsed = Duration.zero
        var sleeps: [Duration] = []
    }

    private let origin = ContinuousClock.now
    private let state = Mutex(State())

    /// How far the replay's sleeps have moved the clock.
    var elapsed: Duration { state.withLock { $0.elapsed } }
    /// Every sleep asked for, in order.
    var sleeps: [Duration] { state.withLock { $0.sleeps } }

    var now: ReplaySource.Now { { [self] in origin + elapsed } }

    var sleep: ReplaySource.Sleep {
        { [self] duration in
            try Task.checkCancellation()
            state.withLock {
                $0.elapsed += duration
                $0.sleeps.append(duration)
            }
        }
    }
}

/// A replay's sleep that returns only when the test releases it: the replay stands still at each sleep, and the
/// test learns of each through `requests`. Cancelled, it throws CancellationError as Task.sleep does. Its clock
/// stands still too, so every sample after the first waits in a sleep, however slowly the machine runs.
final class HeldSleep: Sendable {
    private let origin = ContinuousClock.now
    var now: ReplaySource.Now { { [origin] in origin } }

    private struct State {
        var sleeper: CheckedContinuation<Void, Error>?
        var cancelled = false
    }

    private let state = Mutex(State())
    /// Each sleep asked for, once the replay waits in it.
    let requests: AsyncStream<Duration>
    private let requested: AsyncStream<Duration>.Continuation

    init() {
        (requests, requested) = AsyncStream.makeStream()
    }

    /// Lets the waiting sleep return.
    func release() {
        state.withLock { $0.sleeper.take() }?.resume()
    }

    var sleep: ReplaySource.Sleep {
        { [self] duration in
            state.withLock { $0.cancelled = false }
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let cancelled = state.withLock { state in
                        if !state.cancelled { state.sleeper = continuation }
                        return state.cancelled
                    }
                    if cancelled { continuation.resume(throwing: CancellationError()) } else { requested.yield(duration) }
                }
            } onCancel: {
                let sleeper = state.withLock { state in
                    state.cancelled = true
                    return state.sleeper.take()
                }
                sleeper?.resume(throwing: CancellationError())
            }
        }
    }
}
