/// What `orientd doctor` shows of a kernel hinge sensor: the attributes its angle is made of, as read now, and the
/// angle they give, or why they give none.
public struct HingeSensorFacts: Sendable, Equatable, Codable {
    public struct Attribute: Sendable, Equatable, Codable {
        public var name: String
        public var value: String
    }

    public var id: String
    /// The IIO name: `hinge` or `cros-ec-lid-angle`.
    public var name: String
    public var path: String
    public var attributes: [Attribute]
    public var angle: Double?
    /// Why there is no angle: the sensor's own word (500), a value that is not one, or what cannot be read.
    public var problem: String?

    /// Every hinge sensor udev lists, each read once.
    public static func examine(udev: UdevHub) -> [HingeSensorFacts] {
        udev.hingeSensors().map(examine)
    }

    static func examine(_ device: IIODeviceFacts) -> HingeSensorFacts {
        var facts = HingeSensorFacts(id: device.id, name: device.name ?? "?", path: device.path, attributes: [])
        let sensor: HingeSensor
        do {
            sensor = try HingeSensor(device: device)
        } catch {
            facts.problem = "\(error)"
            return facts
        }
        facts.attributes = sensor.attributeNames.map { name in
            Attribute(name: name, value: (try? HingeSensor.text(device.attributePath(name))) ?? "(unreadable)")
        }
        do {
            switch try sensor.read() {
            case .degrees(let degrees): facts.angle = degrees
            case .unknown(let reason): facts.problem = reason
            }
        } catch {
            facts.problem = "\(error)"
        }
        return facts
    }
}
