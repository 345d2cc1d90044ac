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
        let (listed, unreadable) = frequencies(available)
        return (nearest(atLeast: minimum, in: listed), unreadable)
    }

    /// What to write to ask a driver for `requested` Hz: the smallest frequency its list holds that is at least that
    /// (a driver such as kxcjk-1013 refuses any other), else the largest it lists; with no list, `requested` itself.
    public static func frequency(for requested: Double, available: String?) -> Double {
        nearest(atLeast: requested, in: frequencies(available).listed)
    }

    private static func nearest(atLeast wanted: Double, in listed: [Double]) -> Double {
        listed.filter { $0 >= wanted }.min() ?? listed.max() ?? wanted
    }

    /// The positive frequencies of a `_available` list, up to its first word that is not a number (returned too).
    private static func frequencies(_ available: String?) -> (listed: [Double], unreadable: String?) {
        var listed: [Double] = []
        for word in (available ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            guard let value = Double(word), value.isFinite, value >= 0 else { return (listed, String(word)) }
            if value > 0 { listed.append(value) }
        }
        return (listed, nil)
    }

    /// The shortest text that reads back as `frequency`: `10`, `12.5`, as iio-sensor-proxy writes it (no newline).
    public static func text(_ frequency: Double) -> String {
        frequency == frequency.rounded() && abs(frequency) < 1e15 ? String(Int64(frequency)) : String(frequency)
    }
}
