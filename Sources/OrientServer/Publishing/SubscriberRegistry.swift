import OrientCore
import OrientProtocol

/// The subscribed connections, and the fan-out of a change to them.
struct SubscriberRegistry {
    private var subscribers: [ObjectIdentifier: Subscriber] = [:]
    /// How many subscribers asked for each one-value sensor, kept as they come, go and change.
    private(set) var readers: [SensorKind: Int] = [:]

    var count: Int { subscribers.count }
    /// How many subscribers want nothing but the tablet-mode switch's state.
    var switchKeepers: Int { subscribers.values.filter(\.wantsOnlyTheSwitch).count }

    subscript(sink: any SubscriberSink) -> Subscriber? { subscribers[ObjectIdentifier(sink)] }

    mutating func add(_ subscriber: Subscriber) {
        subscribers[ObjectIdentifier(subscriber.sink)] = subscriber
        count(subscriber.readings, by: 1)
    }

    /// Returns whether `sink` was subscribed.
    mutating func remove(_ sink: any SubscriberSink) -> Bool {
        guard let removed = subscribers.removeValue(forKey: ObjectIdentifier(sink)) else { return false }
        count(removed.readings, by: -1)
        return true
    }

    /// A subscriber asks for other one-value sensors.
    mutating func setReadings(_ readings: Set<SensorKind>, of subscriber: Subscriber) {
        count(subscriber.readings, by: -1)
        subscriber.updateReadings(readings)
        count(readings, by: 1)
    }

    private mutating func count(_ kinds: Set<SensorKind>, by change: Int) {
        for kind in kinds {
            let count = (readers[kind] ?? 0) + change
            readers[kind] = count > 0 ? count : nil
        }
    }

    func apply(_ update: ViewUpdate) {
        for subscriber in subscribers.values { subscriber.apply(update) }
    }

    /// Why a system mask cannot be put in force, or `nil`: it would leave a subscriber with no allowed orientation.
    /// - Parameter shown: the mask to name, when another one is in force because of it (a reloaded configured
    ///   mask, under a mask set at run time).
    func stranding(_ mask: InterfaceOrientationMask, shown: InterfaceOrientationMask? = nil) -> String? {
        let stranded = subscribers.values.filter { mask.intersection($0.settings.mask).isEmpty }.count
        guard stranded > 0 else { return nil }
        return "the mask \(shown ?? mask) would leave \(stranded) subscriber(s) with no allowed orientation"
    }

    /// Offers a one-value sensor's state to every subscriber that asked for its kind; the line is encoded once.
    func broadcast(_ reading: ReadingState) {
        var line: String?
        for subscriber in subscribers.values {
            subscriber.offer(reading) { reading in
                if let line { return line }
                line = ServerMessage.reading(reading).line
                return line!
            }
        }
    }

    /// Offers the tablet-mode switch's state to every subscriber that asked for it.
    func broadcast(_ switchState: TabletModeSwitchState) {
        for subscriber in subscribers.values { subscriber.offer(switchState) }
    }

    /// Offers every subscriber its current state; each event line is encoded once per distinct state.
    func broadcast(_ state: PublishedState) {
        var cache: [OrientationState: String] = [:]
        for subscriber in subscribers.values {
            subscriber.offer(state.state(seenBy: subscriber.view)) { state in
                if let line = cache[state] { return line }
                let line = ServerMessage.event(state).line
                cache[state] = line
                return line
            }
        }
    }
}
