import OrientCore

extension StatusReport {
    /// What one sensor's capture ran into and handled on its own since the daemon started: a buffer that gave
    /// nothing and was opened again or polled, a sensor that stopped reading, an open sensor opened again after a
    /// resume. How many, and the last as the log said it. `orientd doctor` and `orientctl status` show them.
    public struct Incidents: Sendable, Equatable, Codable {
        /// The kind's name: `accelerometer`, `light`, `proximity`. Never the compass, whose incidents would tell that
        /// someone uses it (the socket says only whether one is present).
        public var sensor: String
        public var count: Int
        public var last: String
        /// Seconds after the daemon started.
        public var at: Double

        public init(sensor: String, count: Int, last: String, at: Double) {
            self.sensor = sensor
            self.count = count
            self.last = last
            self.at = at
        }
    }

    /// Whether `kind`'s incidents may be shown on the socket.
    public static func showsIncidents(of kind: SensorKind) -> Bool {
        if case .refused = kind.socket { return false }
        return true
    }
}
