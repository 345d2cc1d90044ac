/// What a one-value sensor's source needs of udev: the devices of some subsystems as udev has announced them, and
/// their add, remove and change events. Handed in, not reached for: the daemon's is its one ``UdevHub``, and a test's
/// is a folder tree it makes and changes itself, so that a capture runs in the test's own process.
protocol DeviceDirectory: Sendable {
    /// Every device of `subsystems` now, those of the first subsystem first, each subsystem's sorted by id; nil when
    /// udev cannot be used at all. Blocks the caller for one enumeration.
    func deviceFacts(in subsystems: [String]) -> [IIODeviceFacts]?

    /// Starts telling the caller of the events of `subsystems`, from now on; nil when no pipe can be made.
    func subscribe(_ subsystems: [String]) -> UdevSubscription?

    func unsubscribe(_ subscription: UdevSubscription)

    /// What `observe` makes of the devices of `subsystems`, now and again after every event of those subsystems,
    /// yielded when it changes; `unavailable`'s value while udev cannot be watched (nil: the last value stands).
    func devicesChanged<Value: Equatable & Sendable>(
        in subsystems: [String], unavailable: (@Sendable (any Error) -> Value)?,
        observe: @escaping @Sendable (_ devices: [IIODeviceFacts], _ events: [UdevEvent]) -> Value
    ) -> AsyncStream<Value>
}

extension UdevHub: DeviceDirectory {
    func deviceFacts(in subsystems: [String]) -> [IIODeviceFacts]? {
        query { $0.deviceFacts(in: subsystems) }
    }

    func devicesChanged<Value: Equatable & Sendable>(
        in subsystems: [String], unavailable: (@Sendable (any Error) -> Value)?,
        observe: @escaping @Sendable (_ devices: [IIODeviceFacts], _ events: [UdevEvent]) -> Value
    ) -> AsyncStream<Value> {
        changes(of: subsystems, unavailable: unavailable) { session, events in
            observe(session.deviceFacts(in: subsystems), events)
        }
    }
}
