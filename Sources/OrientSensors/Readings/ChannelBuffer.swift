/// What ``HIDChannelReader`` needs of a buffered channel: the scans the kernel buffered, taken without waiting, and
/// the channel's scale. ``IIOBufferedChannel`` is the one libiio opens; a test scripts its own.
protocol ChannelBuffer: AnyObject {
    /// `/dev/iio:device1`: named in the log.
    var nodePath: String { get }
    var offset: Double { get }
    var scale: Double { get }
    /// The last complete scan's value; nil until one arrives.
    var value: Double? { get }
    /// Takes every scan buffered since the last call; whether one came.
    func drain() throws(AttributeFault) -> Bool
}

extension IIOBufferedChannel: ChannelBuffer {}
