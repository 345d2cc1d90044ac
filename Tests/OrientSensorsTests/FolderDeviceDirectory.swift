import Foundation
@testable import OrientSensors
import Synchronization

/// udev as a capture sees it, over a temporary folder: each device is a folder of attribute files that the drivers
/// read as they read sysfs, its udev facts are set here, and `add` and `remove` post the events udevd would. Like
/// ``UdevSession``, it leaves a device announced as removed out of what it lists, even while its folder lingers.
/// Accelerometers are listed as udev describes them (``AccelerometerCandidate``), with no folder: a test's
/// ``AccelerometerOpener`` reads them.
final class FolderDeviceDirectory: DeviceDirectory, AccelerometerDirectory {
    private struct Observer {
        var subsystems: Set<String>
        var notify: @Sendable ([IIODeviceFacts], [UdevEvent]) -> Void
    }

    private struct State {
        var devices: [String: IIODeviceFacts] = [:]
        var accelerometers: [String: AccelerometerCandidate] = [:]
        var lidSwitchNode: String?
        var subscriptions: [ObjectIdentifier: UdevSubscription] = [:]
        var observers: [Int: Observer] = [:]
        var nextObserver = 0
    }

    let root: String
    private let state = Mutex(State())

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("devices-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// Makes device `id`'s folder with `attributes` (sysfs's trailing newline added), and announces it. An attribute
    /// in a subfolder (`scan_elements/in_intensity_both_en`) is written there, and left out of the device's udev
    /// attributes, as udev lists only a device's own.
    @discardableResult
    func add(
        _ id: String, subsystem: String = "iio", name: String? = nil, types: Set<String> = [],
        attributes: [String: String], nearLevel: String? = nil
    ) throws -> IIODeviceFacts {
        let path = "\(root)/\(id)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (attribute, value) in attributes { try write(value, to: "\(path)/\(attribute)") }
        let device = IIODeviceFacts(
            id: id, path: path, name: name, sensorProxyTypes: types,
            attributes: Set(attributes.keys.filter { !$0.contains("/") }),
            proximityNearLevel: nearLevel, subsystem: subsystem)
        announce(UdevEvent(action: "add", id: id, subsystem: subsystem)) { $0.devices[id] = device }
        return device
    }

    /// Announces the accelerometer `candidate`, in `input` when it has an event node, else in `iio`.
    func add(_ candidate: AccelerometerCandidate) {
        let subsystem = candidate.inputNode == nil ? "iio" : "input"
        announce(UdevEvent(action: "add", id: candidate.id, subsystem: subsystem)) { $0.accelerometers[candidate.id] = candidate }
    }

    /// The event node udev would name for the lid switch.
    func setLidSwitchNode(_ node: String?) {
        state.withLock { $0.lidSwitchNode = node }
    }

    /// Announces device `id` again, as it still is (udev's add after a remove whose folder lingered).
    func readd(_ device: IIODeviceFacts) {
        announce(UdevEvent(action: "add", id: device.id, subsystem: device.subsystem)) { $0.devices[device.id] = device }
    }

    /// Writes `value` into attribute `attribute` of device `id`, as its driver would update it.
    func set(_ attribute: String, of id: String, to value: String) throws {
        try write(value, to: "\(root)/\(id)/\(attribute)")
    }

    /// Takes device `id`'s folder away without a word from udev (a device gone mid-read).
    func removeFolder(of id: String) throws {
        try FileManager.default.removeItem(atPath: "\(root)/\(id)")
    }

    /// Announces device `id` as removed; its folder stays unless `removeFolder(of:)` is called too.
    func remove(_ id: String) {
        let subsystem = state.withLock { state in
            state.devices[id]?.subsystem ?? state.accelerometers[id].map { $0.inputNode == nil ? "iio" : "input" }
        } ?? "iio"
        announce(UdevEvent(action: "remove", id: id, subsystem: subsystem)) { state in
            state.devices[id] = nil
            state.accelerometers[id] = nil
        }
    }

    private func write(_ value: String, to path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try (value + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Changes the devices, then tells each subscriber and observer of the event's subsystem, as the hub does.
    private func announce(_ event: UdevEvent, change: (inout State) -> Void) {
        let (subscriptions, observers) = state.withLock { state in
            change(&state)
            return (Array(state.subscriptions.values), Array(state.observers.values))
        }
        for subscription in subscriptions where subscription.subsystems.contains(event.subsystem) {
            subscription.post([event])
        }
        for observer in observers where observer.subsystems.contains(event.subsystem) {
            observer.notify(listed(in: Array(observer.subsystems)), [event])
        }
    }

    private func listed(in subsystems: [String]) -> [IIODeviceFacts] {
        let devices = state.withLock { Array($0.devices.values) }
        return subsystems.flatMap { subsystem in
            devices.filter { $0.subsystem == subsystem }.sorted { $0.id.localizedStandardCompare($1.id) == .orderedAscending }
        }
    }

    func deviceFacts(in subsystems: [String]) -> [IIODeviceFacts]? { listed(in: subsystems) }

    /// IIO accelerometers before input ones, each sorted by id, as ``UdevSession`` lists them.
    func accelerometers() -> [AccelerometerCandidate]? {
        let all = state.withLock { Array($0.accelerometers.values) }
        func sorted(_ input: Bool) -> [AccelerometerCandidate] {
            all.filter { ($0.inputNode != nil) == input }.sorted { $0.id.localizedStandardCompare($1.id) == .orderedAscending }
        }
        return sorted(false) + sorted(true)
    }

    func hingeSensors() -> [IIODeviceFacts] { listed(in: ["iio"]).filter { HingeSensor.driver(of: $0) != nil } }

    func lidSwitchNode() -> String? { state.withLock { $0.lidSwitchNode } }

    func subscribe(_ subsystems: [String]) -> UdevSubscription? {
        guard let subscription = try? UdevSubscription(subsystems: Set(subsystems)) else { return nil }
        state.withLock { $0.subscriptions[ObjectIdentifier(subscription)] = subscription }
        return subscription
    }

    func unsubscribe(_ subscription: UdevSubscription) {
        _ = state.withLock { $0.subscriptions.removeValue(forKey: ObjectIdentifier(subscription)) }
    }

    /// How many captures listen now.
    var subscribers: Int { state.withLock { $0.subscriptions.count } }

    func devicesChanged<Value: Equatable & Sendable>(
        in subsystems: [String], unavailable: (@Sendable (any Error) -> Value)?,
        observe: @escaping @Sendable ([IIODeviceFacts], [UdevEvent]) -> Value
    ) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
        let yield = continuation.yieldingChanges()
        let notify: @Sendable ([IIODeviceFacts], [UdevEvent]) -> Void = { devices, events in
            yield(observe(devices, events))
        }
        let key = state.withLock { state in
            defer { state.nextObserver += 1 }
            state.observers[state.nextObserver] = Observer(subsystems: Set(subsystems), notify: notify)
            return state.nextObserver
        }
        continuation.onTermination = { [weak self] _ in _ = self?.state.withLock { $0.observers.removeValue(forKey: key) } }
        notify(listed(in: subsystems), [])
        return stream
    }
}
