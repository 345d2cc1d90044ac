import OrientCore
import OrientSampleSource

extension DoctorReport {
    /// A light or proximity sensor or a compass, read while the accelerometer was: which device, and what it read.
    struct ReadingSensor: Codable, Equatable {
        /// `light`, `proximity` or `compass`.
        var kind: String
        var id: String
        /// The driver's name (`acpi-als`).
        var name: String
        var foundBy: String
        /// Seconds between two reads.
        var interval: Double
        /// How many readings came in.
        var readings: Int
        /// A light sensor's readings (nil for a proximity sensor).
        var light: LightReadings?
        /// A proximity sensor's near level and last reading (nil for a light sensor).
        var proximity: ProximityReadings?
        /// A compass's headings (nil for the other kinds).
        var compass: CompassReadings?
    }

    /// Headings in degrees from magnetic north; all nil when nothing was read.
    struct CompassReadings: Codable, Equatable {
        var first: Double?
        var last: Double?
        var minimum: Double?
        var maximum: Double?
    }

    struct LightReadings: Codable, Equatable {
        /// `lux`, or `vendor` for a scale of the driver's own.
        var unit: String
        /// Levels; all nil when nothing was read.
        var first: Double?
        var last: Double?
        var minimum: Double?
        var maximum: Double?
        /// How many different levels were read: 1 over several readings is a sensor that may be stuck.
        var distinct: Int
    }

    struct ProximityReadings: Codable, Equatable {
        /// The raw reading above which the sensor reads near.
        var nearLevel: Double?
        /// The last reading; nil when nothing was read.
        var near: Bool?
        /// How many of the readings were near.
        var nearReadings: Int
    }

    /// What `seconds` of one reading source's events say: the sensor it opened and its readings, or why there
    /// was none; a light sensor that read one value throughout, or 0, is warned about.
    mutating func analyseReadings(_ events: [ReadingEvent], kind: SensorKind, seconds: Double) {
        var description: ReadingSensorDescription?
        var values: [OrientCore.Reading] = []
        for event in events {
            switch event {
            case .opened(let opened):
                // The same device opened again (after it went away) carries on; another one starts anew.
                if let previous = description, previous.id != opened.id {
                    summarise(previous, values, seconds: seconds)
                    values = []
                }
                description = opened
            case .reading(let reading):
                values.append(reading)
            case .lost(let reason):
                warnings.append("the \(kind.displayName)\(description.map { " \($0.displayName)" } ?? "") went away: \(reason)")
            case .noSensor(let reason):
                if description == nil { missingReadingSensors[kind.rawValue] = reason }
            case .incident(let what):
                warnings.append("the \(kind.displayName)\(description.map { " \($0.displayName)" } ?? ""): \(what)")
            }
        }
        if let description {
            missingReadingSensors[kind.rawValue] = nil
            summarise(description, values, seconds: seconds)
        }
    }

    private mutating func summarise(_ description: ReadingSensorDescription, _ values: [OrientCore.Reading], seconds: Double) {
        var sensor = ReadingSensor(
            kind: description.kind.rawValue, id: description.id, name: description.name, foundBy: description.foundBy,
            interval: description.interval, readings: values.count)
        let device = "\(description.kind.displayName) \(description.displayName)"
        if values.isEmpty { warnings.append("the \(device) gave no reading in \(Self.format(seconds)) s") }
        switch description.kind {
        case .light:
            var unit = LightUnit.lux
            let levels = values.compactMap { (reading: OrientCore.Reading) -> Double? in
                guard case .light(let level, let readUnit) = reading else { return nil }
                unit = readUnit
                return level
            }
            sensor.light = LightReadings(
                unit: unit.rawValue, first: levels.first, last: levels.last, minimum: levels.min(), maximum: levels.max(),
                distinct: Set(levels).count)
            if let warning = Self.lightWarning(device: device, levels: levels, unit: unit, seconds: seconds) {
                warnings.append(warning)
            }
        case .proximity:
            let nears = values.compactMap { (reading: OrientCore.Reading) -> Bool? in
                guard case .proximity(let near) = reading else { return nil }
                return near
            }
            sensor.proximity = ProximityReadings(
                nearLevel: description.details[.nearLevel], near: nears.last, nearReadings: nears.filter { $0 }.count)
        case .compass:
            let headings = values.compactMap { (reading: OrientCore.Reading) -> Double? in
                guard case .compass(let heading) = reading else { return nil }
                return heading
            }
            sensor.compass = CompassReadings(
                first: headings.first, last: headings.last, minimum: headings.min(), maximum: headings.max())
        case .accelerometer:
            break
        }
        readingSensors.append(sensor)
    }

    /// A light sensor that read 0 throughout is covered, or its driver never reports; one that read one other
    /// value over several readings may be stuck (a real room's light moves a little at least).
    static func lightWarning(device: String, levels: [Double], unit: LightUnit, seconds: Double) -> String? {
        guard let first = levels.first, levels.allSatisfy({ $0 == first }) else { return nil }
        let throughout = "throughout \(format(seconds)) s (\(levels.count) reading\(levels.count == 1 ? "" : "s"))"
        if first == 0 {
            return "the \(device) read 0 \(unit.rawValue) \(throughout): it is covered, or its driver never reports a level"
        }
        guard levels.count > 1 else { return nil }
        return "the \(device) read one value, \(format(first)) \(unit.rawValue), \(throughout): it may be stuck; wave a hand over it and run again"
    }

    /// The light, proximity and compass sections of ``text``.
    var readingSensorLines: [String] {
        var lines: [String] = []
        for sensor in readingSensors {
            let kind = SensorKind(rawValue: sensor.kind)?.displayName ?? sensor.kind
            lines.append("")
            lines.append("\(kind.prefix(1).uppercased() + kind.dropFirst()) \(sensor.id) (\(sensor.name)): found by \(sensor.foundBy), read every \(Self.format(sensor.interval)) s")
            if let light = sensor.light, let first = light.first, let last = light.last, let minimum = light.minimum,
                let maximum = light.maximum
            {
                let unit = light.unit
                lines.append(
                    "  \(sensor.readings) readings (\(unit)): first \(Self.format(first)), last \(Self.format(last)), "
                        + "minimum \(Self.format(minimum)), maximum \(Self.format(maximum)), \(light.distinct) distinct value\(light.distinct == 1 ? "" : "s")")
            }
            if let compass = sensor.compass, let first = compass.first, let last = compass.last,
                let minimum = compass.minimum, let maximum = compass.maximum
            {
                lines.append(
                    "  \(sensor.readings) headings (degrees): first \(Self.format(first)), last \(Self.format(last)), "
                        + "minimum \(Self.format(minimum)), maximum \(Self.format(maximum))")
            }
            if let proximity = sensor.proximity {
                let level = proximity.nearLevel.map { Self.format($0) } ?? "unknown"
                let now = proximity.near.map { $0 ? "near" : "far" } ?? "no reading"
                lines.append("  near level \(level): \(now) (\(proximity.nearReadings) of \(sensor.readings) readings near)")
            }
        }
        for (kind, reason) in missingReadingSensors.sorted(by: { $0.key < $1.key }) {
            let name = SensorKind(rawValue: kind)?.displayName ?? kind
            lines.append("")
            lines.append("\(name.prefix(1).uppercased() + name.dropFirst()): none (\(reason))")
        }
        return lines
    }
}
