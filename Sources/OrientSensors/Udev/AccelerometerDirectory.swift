/// What the accelerometer's capture needs of udev: the accelerometers and hinge sensors present, the lid switch's
/// node, and the events of the subsystems accelerometers live in. Handed in, not reached for: the daemon's is its one
/// ``UdevHub``, and a test's a fake whose devices it adds and removes itself, so that ``LiveCapture`` runs in the
/// test's own process.
protocol AccelerometerDirectory: Sendable {
    /// The accelerometers now, IIO ones before input ones; nil when udev cannot be used at all. Blocks the caller for
    /// one enumeration.
    func accelerometers() -> [AccelerometerCandidate]?

    /// The kernel hinge sensors now (``HingeSensor/driver(of:)``), sorted by id; empty when udev cannot be used.
    func hingeSensors() -> [IIODeviceFacts]

    /// The event node of the input device that reports SW_LID; nil without one, or when udev cannot be used.
    func lidSwitchNode() -> String?

    /// Starts telling the caller of the events of `subsystems`, from now on; nil when no pipe can be made.
    func subscribe(_ subsystems: [String]) -> UdevSubscription?

    func unsubscribe(_ subscription: UdevSubscription)
}

extension UdevHub: AccelerometerDirectory {
    func accelerometers() -> [AccelerometerCandidate]? {
        query { $0.accelerometers() }
    }

    func hingeSensors() -> [IIODeviceFacts] {
        query { $0.hingeSensors() } ?? []
    }

    func lidSwitchNode() -> String? {
        query { $0.lidSwitchNode() } ?? nil
    }
}
