/// The sampling frequency a sensor is left at when the daemon finds it, as iio-sensor-proxy 3.9 chooses it: at least
/// ``minimum``. A driver that samples slower is moved to the smallest of the frequencies it lists (its
/// `sampling_frequency_available`) that is at least the minimum, else to the largest it lists, else to the minimum.
/// The daemon may still ask for more while a client reads the sensor. Pure: the caller reads and writes sysfs.
public enum SamplingFrequencyChoice {
    /// Hz.
    public static let minimum = 10.0

    /// What to write, or nil to leave `current` as it is (already at least the minimum).
    ///
    /// - Parameter available: the driver's list as sysfs gives it (`3 6 12 25`, `12.500000 6.250000`, in either
    ///   order), or nil when it has none.
    /// - Returns: the frequency, and the list's first word that is not a number when there is one (the list is read
    ///   up to it, as iio-sensor-proxy reads it).
    public static func choose(current: Double, available: String?) -> (frequency: Double, unreadable: String?)? {
        guard current < minimum else { return nil }
        var listed: [Double] = []
        var unreadable: String?
        for word in (available ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            guard let value = Double(word), value.isFinite, value >= 0 else {
                unreadable = String(word)
                break
            }
            if value > 0 { listed.append(value) }
        }
        let frequency = listed.filter { $0 >= minimum }.min() ?? listed.max() ?? minimum
        return (frequency, unreadable)
    }

    /// The shortest text that reads back as `frequency`: `10`, `12.5`, as iio-sensor-proxy writes it (no newline).
    public static func text(_ frequency: Double) -> String {
        frequency == frequency.rounded() && abs(frequency) < 1e15 ? String(Int64(frequency)) : String(frequency)
    }
}
