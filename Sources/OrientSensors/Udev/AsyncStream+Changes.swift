import Synchronization

extension AsyncStream.Continuation where Element: Equatable & Sendable {
    /// A function that yields what it is given only when it differs from what it yielded last: how a stream of
    /// devices keeps its promise to yield "when it changes" (``UdevHub/changes(of:unavailable:observe:)``).
    func yieldingChanges() -> @Sendable (Element) -> Void {
        let last = Mutex<Element?>(nil)
        return { value in
            guard last.withLock({ previous in
                defer { previous = value }
                return previous != value
            }) else { return }
            self.yield(value)
        }
    }
}
