/// Which way the screen content is drawn.
///
/// The raw values are the wire names. ``iosValue`` gives UIKit's `UIInterfaceOrientation` numbering,
/// from which the mask bits are derived.
public enum InterfaceOrientation: String, Sendable, CaseIterable, Hashable, Codable {
    case unknown
    case portrait
    case portraitUpsideDown = "portrait-upside-down"
    case landscapeLeft = "landscape-left"
    case landscapeRight = "landscape-right"

    /// The four orientations an interface can actually be drawn in.
    public static let drawable: [InterfaceOrientation] = [.portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight]

    /// UIKit's raw value for this orientation (`UIInterfaceOrientation`).
    public var iosValue: Int {
        switch self {
        case .unknown: 0
        case .portrait: 1
        case .portraitUpsideDown: 2
        case .landscapeRight: 3
        case .landscapeLeft: 4
        }
    }

    /// The device orientation that asks for this interface orientation (the inverse of the crossover mapping).
    public var deviceOrientation: DeviceOrientation {
        switch self {
        case .unknown: .unknown
        case .portrait: .portrait
        case .portraitUpsideDown: .portraitUpsideDown
        case .landscapeLeft: .landscapeRight
        case .landscapeRight: .landscapeLeft
        }
    }
}

extension InterfaceOrientation: CustomStringConvertible {
    public var description: String { rawValue }
}

/// A name that is not one of the four drawable interface orientations.
public struct OrientationNameError: Error, Equatable, CustomStringConvertible {
    public let input: String

    public var description: String {
        let names = InterfaceOrientation.drawable.map(\.rawValue).joined(separator: ", ")
        return "unknown orientation \"\(input)\"; expected one of: \(names)"
    }
}

extension InterfaceOrientation {
    /// Parses a drawable orientation's name, as every `preferred` setting, option and request field takes it.
    public init(parsingDrawable text: String) throws(OrientationNameError) {
        guard let orientation = InterfaceOrientation(rawValue: text), orientation != .unknown else {
            throw OrientationNameError(input: text)
        }
        self = orientation
    }
}
