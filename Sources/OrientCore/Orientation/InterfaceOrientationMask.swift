/// A set of interface orientations, with UIKit's `UIInterfaceOrientationMask` bit values for interop:
/// bit = 1 << ``InterfaceOrientation/iosValue``.
public struct InterfaceOrientationMask: OptionSet, Sendable, Hashable {
    public let rawValue: UInt

    /// Bits that name no orientation are dropped, so two masks that allow the same orientations are equal.
    public init(rawValue: UInt) {
        self.rawValue = rawValue & Self.orientationBits
    }

    /// portrait 2 | upside-down 4 | landscape-right 8 | landscape-left 16.
    private static let orientationBits: UInt = 0b11110

    public init(_ orientation: InterfaceOrientation) {
        self.rawValue = orientation == .unknown ? 0 : 1 << UInt(orientation.iosValue)
    }

    public static let portrait = Self(.portrait)
    public static let portraitUpsideDown = Self(.portraitUpsideDown)
    public static let landscapeLeft = Self(.landscapeLeft)
    public static let landscapeRight = Self(.landscapeRight)
    public static let landscape: Self = [.landscapeLeft, .landscapeRight]
    public static let allButUpsideDown: Self = [.portrait, .landscapeLeft, .landscapeRight]
    public static let all: Self = [.portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight]

    /// The named masks, largest first, as they are spelled on the wire.
    public static let named: [(name: String, mask: Self)] = [
        ("all", .all),
        ("all-but-upside-down", .allButUpsideDown),
        ("landscape", .landscape),
        ("portrait", .portrait),
        ("portrait-upside-down", .portraitUpsideDown),
        ("landscape-left", .landscapeLeft),
        ("landscape-right", .landscapeRight),
    ]

    /// Whether the mask allows this orientation. `unknown` is never allowed.
    public func allows(_ orientation: InterfaceOrientation) -> Bool {
        orientation != .unknown && contains(Self(orientation))
    }

    /// The allowed orientations, in UIKit's numeric order.
    public var orientations: [InterfaceOrientation] {
        InterfaceOrientation.allCases.filter(allows).sorted { $0.iosValue < $1.iosValue }
    }
}
