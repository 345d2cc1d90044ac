/// How the hardware is held, as seen by the accelerometer.
///
/// The raw values are the wire names used on the socket, in traces and on the command line.
/// `unknown` is the state before the first settled reading and while no sensor is available.
public enum DeviceOrientation: String, Sendable, CaseIterable, Hashable, Codable {
    case unknown
    case portrait
    case portraitUpsideDown = "portrait-upside-down"
    /// The top of the device points left: its right edge is up.
    case landscapeLeft = "landscape-left"
    /// The top of the device points right: its left edge is up.
    case landscapeRight = "landscape-right"
    case faceUp = "face-up"
    case faceDown = "face-down"

    /// The four orientations in which the screen stands more or less vertical.
    public static let upright: [DeviceOrientation] = [.portrait, .landscapeRight, .portraitUpsideDown, .landscapeLeft]

    public var isUpright: Bool {
        switch self {
        case .portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight: true
        case .unknown, .faceUp, .faceDown: false
        }
    }

    /// The interface orientation this device orientation asks for, or `nil` when it asks for none
    /// (face up, face down and unknown keep whatever the interface had).
    ///
    /// The landscape names cross over: turning the device left turns the content right.
    public var interfaceOrientation: InterfaceOrientation? {
        switch self {
        case .portrait: .portrait
        case .portraitUpsideDown: .portraitUpsideDown
        case .landscapeLeft: .landscapeRight
        case .landscapeRight: .landscapeLeft
        case .unknown, .faceUp, .faceDown: nil
        }
    }
}

extension DeviceOrientation: CustomStringConvertible {
    public var description: String { rawValue }
}
