import Logging

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

/// Where ``IIOBuffered`` gets its channel's buffer, and the clock it times the buffer's silences by: libiio and the
/// monotonic clock (``LibIIOBuffers``), or a test's script.
protocol ChannelBufferOpening {
    /// Opens `device`'s buffer of `channel`, whose files said `attributes`, with its trigger (`als` for `als-dev1`).
    static func open(
        _ device: IIODeviceFacts, channel: String, attributes: BufferedChannelAttributes, trigger: String,
        logger: Logger
    ) throws(AttributeFault) -> any ChannelBuffer
    /// Seconds on a monotonic clock, which the silences of `device`'s buffer are timed by.
    static func clock(for device: IIODeviceFacts) -> () -> Double
}

/// The buffers libiio opens (``IIOBufferedChannel``), on the monotonic clock.
enum LibIIOBuffers: ChannelBufferOpening {
    static func open(
        _ device: IIODeviceFacts, channel: String, attributes: BufferedChannelAttributes, trigger: String,
        logger: Logger
    ) throws(AttributeFault) -> any ChannelBuffer {
        try IIOBufferedChannel(device: device, channel: channel, attributes: attributes, trigger: trigger, logger: logger)
    }

    static func clock(for device: IIODeviceFacts) -> () -> Double { monotonicSeconds }
}
