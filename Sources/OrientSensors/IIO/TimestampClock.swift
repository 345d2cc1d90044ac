#if canImport(Glibc)
import Glibc
#endif

/// The clock an IIO device stamps its buffered scans with, as its `current_timestamp_clock` attribute names it.
///
/// The kernel's default is the wall clock (`realtime`), while polled samples are taken on the monotonic clock; a
/// capture that falls back from one mode to the other must not see time jump by decades, or backwards.
enum TimestampClock: String, CaseIterable, Sendable {
    case realtime
    case monotonic
    case monotonicRaw = "monotonic_raw"
    case realtimeCoarse = "realtime_coarse"
    case monotonicCoarse = "monotonic_coarse"
    case boottime
    case tai

    /// Parses the attribute's text (a name and a newline); `nil` for anything else.
    init?(attribute text: String) {
        guard let name = text.split(whereSeparator: \.isWhitespace).first else { return nil }
        self.init(rawValue: String(name))
    }

    var clockID: clockid_t {
        switch self {
        case .realtime: CLOCK_REALTIME
        case .monotonic: CLOCK_MONOTONIC
        case .monotonicRaw: CLOCK_MONOTONIC_RAW
        case .realtimeCoarse: CLOCK_REALTIME_COARSE
        case .monotonicCoarse: CLOCK_MONOTONIC_COARSE
        case .boottime: CLOCK_BOOTTIME
        case .tai: CLOCK_TAI
        }
    }

    /// Now on this clock, in seconds.
    var now: Double {
        var time = timespec()
        clock_gettime(clockID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}
