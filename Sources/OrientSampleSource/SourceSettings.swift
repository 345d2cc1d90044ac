import Synchronization

/// What a one-value sensor's source takes from the settings: how often it reads. The capture reads it at each
/// schedule (``LiveSettings``), so a reload changes it without closing the sensor, and without resetting a filter
/// that the kind runs on the readings.
public struct SourceSettings: Sendable, Equatable {
    /// Seconds between two reads; nil: the driver's own interval.
    public var interval: Double?

    public init(interval: Double? = nil) {
        self.interval = interval
    }
}

/// Settings that a running capture reads on its own thread each time it needs them, and a reload sets from
/// another.
public final class LiveSettings<Value: Sendable>: Sendable {
    private let value: Mutex<Value>

    public init(_ value: Value) {
        self.value = Mutex(value)
    }

    public var current: Value { value.withLock { $0 } }

    public func set(_ new: Value) {
        value.withLock { $0 = new }
    }
}
