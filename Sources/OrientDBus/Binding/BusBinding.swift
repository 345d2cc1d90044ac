import OrientCore

/// How one kind of sensor appears on net.hadess.SensorProxy: the object its members belong to, the name in its
/// `Claim` and `Release` methods, and its properties. The facade's member tables, what `PropertiesChanged` lists,
/// which claims are tracked and how a property is read all follow from the bindings of ``SensorKind/allCases``
/// (``SensorKind/bus``): a new kind is one more binding.
struct BusBinding: Sendable {
    let object: BusObject
    /// `Light`: the methods are `ClaimLight` and `ReleaseLight`.
    let member: String
    /// In the order introspection lists them.
    let properties: [BusProperty]

    /// A one-value kind's binding: `presence` (`HasAmbientLight`), whether its sensor is plugged in, then one
    /// property for each of its reading's ``Reading/busValues``, named by `values`. Before the first reading they show
    /// `before`'s; after, the last reading's, kept when the sensor goes. A change of any of them announces
    /// `announcement` when given (all of them, in its order), else the one that changed.
    static func reading(
        _ kind: SensorKind, object: BusObject, member: String, presence: String, values names: [String],
        announcement: [String]? = nil, before: Reading
    ) -> BusBinding {
        let initial = before.busValues
        precondition(initial.count == names.count, "\(kind): one name for each of its reading's bus values")
        let values = names.enumerated().map { index, name in
            BusProperty(
                name: name, signature: initial[index].signature,
                value: { ($0.readings[kind] ?? before).busValues[index] },
                announcement: announcement ?? [name])
        }
        return BusBinding(
            object: object, member: member, properties: [.boolean(presence) { $0.present.contains(kind) }] + values)
    }

    var claimMethod: String { "Claim" + member }
    var releaseMethod: String { "Release" + member }
}

/// One of the facade's two objects.
enum BusObject: Sendable, Hashable, CaseIterable {
    /// The accelerometer, the light and the proximity sensor.
    case sensorProxy
    /// The compass, on an object of its own, as iio-sensor-proxy serves it.
    case compass

    var path: String {
        switch self {
        case .sensorProxy: "/net/hadess/SensorProxy"
        case .compass: "/net/hadess/SensorProxy/Compass"
        }
    }

    var interface: String {
        switch self {
        case .sensorProxy: "net.hadess.SensorProxy"
        case .compass: "net.hadess.SensorProxy.Compass"
        }
    }

    /// The bindings of the kinds served on this object, in ``SensorKind`` order.
    var bindings: [BusBinding] { Self.bindings[self] ?? [] }

    /// The properties of this object, in the order introspection lists them.
    var properties: [BusProperty] { Self.properties[self] ?? [] }

    private static let bindings = Dictionary(grouping: SensorKind.allCases.map(\.bus), by: \.object)
    private static let properties = bindings.mapValues { $0.flatMap(\.properties) }

    /// This object's property values, in the order of ``properties``: each computed once, then compared and sent
    /// from this table.
    func values(_ properties: SensorProxyProperties) -> [BusValue] {
        self.properties.map { $0.value(properties) }
    }

    /// The names of this object's properties whose values differ between two of its tables (``values(_:)``), as
    /// `PropertiesChanged` lists them: each changed property's ``BusProperty/announcement``, once.
    func changedNames(_ current: [BusValue], since earlier: [BusValue]) -> [String] {
        var names: [String] = []
        for (index, property) in properties.enumerated() where current[index] != earlier[index] {
            names += property.announcement.filter { !names.contains($0) }
        }
        return names
    }
}

extension BusObject {
    /// Who hears which of this object's changed properties (`names`, from ``changedNames(_:since:)``), given the
    /// unique bus names that claim each kind. As in iio-sensor-proxy 3.9, a kind's changes go only to its claimants,
    /// each in a signal of its own: a client that claims nothing hears nothing. Sorted by client, each client's names
    /// in table order. (3.9 also sends a kind's values with its `Has*` turning true; orientd's `Has*` turns true on
    /// udev's word, before the first reading, when those values would be stale.)
    func recipients(of names: [String], claimants: [SensorKind: [String]]) -> [(client: String, names: [String])] {
        var heard: [String: Set<String>] = [:]
        for kind in SensorKind.allCases where kind.bus.object == self {
            let own = kind.bus.properties.map(\.name)
            let changed = own.filter(names.contains)
            guard !changed.isEmpty else { continue }
            for client in claimants[kind] ?? [] { heard[client, default: []].formUnion(changed) }
        }
        let order = properties.map(\.name)
        return heard.keys.sorted().map { client in (client, order.filter { heard[client]!.contains($0) }) }
    }
}

/// A read-only property of the facade, its value taken from ``SensorProxyProperties``.
struct BusProperty: Sendable {
    let name: String
    /// Its D-Bus type: `b`, `d` or `s`.
    let signature: String
    let value: @Sendable (SensorProxyProperties) -> BusValue
    /// What `PropertiesChanged` lists when it changes: itself, and for the light level its unit with it (and the
    /// level with a new unit), as iio-sensor-proxy announces them.
    let announcement: [String]

    static func boolean(_ name: String, _ value: @escaping @Sendable (SensorProxyProperties) -> Bool) -> BusProperty {
        BusProperty(name: name, signature: "b", value: { .boolean(value($0)) }, announcement: [name])
    }

    static func double(
        _ name: String, announcedAs announcement: [String]? = nil, _ value: @escaping @Sendable (SensorProxyProperties) -> Double
    ) -> BusProperty {
        BusProperty(name: name, signature: "d", value: { .double(value($0)) }, announcement: announcement ?? [name])
    }

    static func string(
        _ name: String, announcedAs announcement: [String]? = nil, _ value: @escaping @Sendable (SensorProxyProperties) -> String
    ) -> BusProperty {
        BusProperty(name: name, signature: "s", value: { .string(value($0)) }, announcement: announcement ?? [name])
    }
}

/// A property's value as it goes on the bus.
enum BusValue: Sendable, Equatable {
    case boolean(Bool)
    case double(Double)
    case string(String)

    /// Its D-Bus type.
    var signature: String {
        switch self {
        case .boolean: "b"
        case .double: "d"
        case .string: "s"
        }
    }
}
