/// Where a subscriber's lines go: a socket connection in the daemon, a recorder in tests.
public protocol SubscriberSink: AnyObject {
    /// Whether a write now would be taken without queueing beyond the socket's high-water mark.
    var isWritable: Bool { get }
    func send(_ line: String)
}
