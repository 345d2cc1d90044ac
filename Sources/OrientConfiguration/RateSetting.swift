/// A sampling rate setting (`still-rate`, `rest-rate`): left at its default, set, or off.
///
/// A default gives way where the settings the user did set leave no room for it (`rate = 2`, under the still rate's
/// 5 Hz; `classifier.max-sample-gap = 0.3`, shorter than the rest rate's 0.5 s between samples): a configuration
/// valid before a default was added stays valid. Only a rate the user set is an error when it conflicts.
public enum RateSetting: Equatable, Sendable {
    case standard
    case hz(Double)
    case off

    /// The rate in effect: `standard` where `fits` it, else none.
    func rate(standard: Double, fits: (Double) -> Bool) -> Double? {
        switch self {
        case .standard: fits(standard) ? standard : nil
        case .hz(let hz): hz
        case .off: nil
        }
    }

    /// `off` or a number in hertz, as the file and the command line write it.
    static func parse(_ text: String) throws(SettingValueError) -> RateSetting {
        text == "off" ? .off : .hz(try SettingValue.number(text))
    }
}
