/// The reads of a sensor beside the display's (a base accelerometer, a hinge sensor) that failed in a row: one gone,
/// or failing `limit` times in a row, is given up, and the display alone goes on.
struct FailuresInARow {
    private(set) var count = 0

    mutating func succeeded() { count = 0 }

    /// Counts a failure; returns whether the sensor is to be given up.
    mutating func failed(deviceIsGone: Bool, limit: Int) -> Bool {
        count += 1
        return deviceIsGone || count >= limit
    }
}
