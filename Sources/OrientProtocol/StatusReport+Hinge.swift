extension StatusReport {
    /// A kernel hinge sensor read beside the accelerometer: `hinge` (hid-sensor-custom-intel-hinge) or
    /// `cros-ec-lid-angle`, by its IIO name. Its angle is the socket's `hinge-angle`.
    public struct HingeSensor: Sendable, Equatable, Codable {
        public var id: String
        public var name: String
        /// The sysfs path; `nil` for a replayed trace's angles.
        public var path: String?

        public init(id: String, name: String, path: String?) {
            self.id = id
            self.name = name
            self.path = path
        }

        public func encode(to encoder: any Encoder) throws {
            var members = encoder.container(keyedBy: WireKey.self)
            try members.encode(id, forKey: .id)
            try members.encode(name, forKey: .name)
            try members.encode(path, forKey: .path)
        }

        public init(from decoder: any Decoder) throws {
            let members = try decoder.container(keyedBy: WireKey.self)
            id = try members.decode(String.self, forKey: .id)
            name = try members.decode(String.self, forKey: .name)
            path = try members.decodeIfPresent(String.self, forKey: .path)
        }
    }
}
