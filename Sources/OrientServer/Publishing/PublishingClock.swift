/// Runs work once a delay has passed, on the publisher's event loop: the loop's timers in the daemon
/// (``EventLoopClock``), a clock turned by hand in tests.
public protocol PublishingClock {
    func schedule(after seconds: Double, _ work: @escaping () -> Void)
}
