import OrientCore

/// The one-value sensors in the answer to `status`: `"readings":{"light":{...},"proximity":{...},"compass":{...}}`,
/// one member for each kind the daemon serves.
extension StatusReport {
    public struct ReadingSensor: Sendable, Equatable {
        /// `light`, `proximity` or `compass`.
        public var kind: String
        /// Whether a sensor of this kind is plugged in; `nil` until udev has said.
        public var present: Bool?
        /// Whether it is read now (someone wants it). The compass says whether it is present and nothing more.
        public var open: Bool?
        /// The sensor last opened: its device id, driver name, why it was taken, and its reading interval in
        /// seconds; `nil` before it was first opened.
        public var id: String?
        public var name: String?
        public var foundBy: String?
        public var interval: Double?
        /// What the sensor last opened said of itself (a proximity sensor's near level), by its kind's details.
        public var details: [SensorDetail: Double]
        /// What it last read (light and proximity).
        public var value: Reading?

        public init(
            kind: String, present: Bool?, open: Bool? = nil, id: String? = nil, name: String? = nil, foundBy: String? = nil,
            interval: Double? = nil, details: [SensorDetail: Double] = [:], value: Reading? = nil
        ) {
            self.kind = kind
            self.present = present
            self.open = open
            self.id = id
            self.name = name
            self.foundBy = foundBy
            self.interval = interval
            self.details = details
            self.value = value
        }
    }

    func encodeReadings(into members: inout KeyedEncodingContainer<WireKey>) throws {
        guard let readingSensors else { return }
        var all = members.nestedContainer(keyedBy: WireKey.self, forKey: .readings)
        for sensor in readingSensors {
            guard let kind = SensorKind(rawValue: sensor.kind), let key = WireKey(kind) else { continue }
            var detail = all.nestedContainer(keyedBy: WireKey.self, forKey: key)
            try detail.encode(sensor.present, forKey: .present)
            // A kind not offered (the compass): present or not, nothing that tells where someone is or that someone asks.
            guard kind.socket == .reading else { continue }
            try detail.encode(sensor.open, forKey: .open)
            try detail.encode(sensor.id, forKey: .id)
            try detail.encode(sensor.name, forKey: .name)
            try detail.encode(sensor.foundBy, forKey: .foundBy)
            try detail.encode(sensor.interval, forKey: .interval)
            for name in kind.details { try detail.encode(sensor.details[name], forKey: WireKey(name)) }
            try ReadingState.encode(sensor.value, of: kind, into: &detail)
        }
    }

    static func decodeReadings(from members: KeyedDecodingContainer<WireKey>) throws -> [ReadingSensor]? {
        guard members.contains(.readings) else { return nil }
        let all = try members.nestedContainer(keyedBy: WireKey.self, forKey: .readings)
        // JSON objects have no order: in the daemon's (``SensorKind`` order); kinds this client does not know are
        // skipped.
        return try SensorKind.allCases.compactMap { kind -> ReadingSensor? in
            guard let key = WireKey(kind), all.contains(key) else { return nil }
            let detail = try all.nestedContainer(keyedBy: WireKey.self, forKey: key)
            var sensor = ReadingSensor(kind: key.stringValue, present: try detail.decodeIfPresent(Bool.self, forKey: .present))
            sensor.open = try detail.decodeIfPresent(Bool.self, forKey: .open)
            sensor.id = try detail.decodeIfPresent(String.self, forKey: .id)
            sensor.name = try detail.decodeIfPresent(String.self, forKey: .name)
            sensor.foundBy = try detail.decodeIfPresent(String.self, forKey: .foundBy)
            sensor.interval = try detail.decodeIfPresent(Double.self, forKey: .interval)
            for name in kind.details {
                sensor.details[name] = try detail.decodeIfPresent(Double.self, forKey: WireKey(name))
            }
            sensor.value = try ReadingState.decodeValue(of: kind, from: detail)
            return sensor
        }
    }
}
