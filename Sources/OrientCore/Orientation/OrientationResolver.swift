/// The effective mask (system mask ∩ client mask) allows no orientation at all.
///
/// UIKit crashes with `UIApplicationInvalidInterfaceOrientation` here; orientd refuses the request that caused it
/// and keeps what it had.
public struct EmptyMaskError: Error, Equatable, CustomStringConvertible {
    public let systemMask: InterfaceOrientationMask
    public let clientMask: InterfaceOrientationMask

    public init(systemMask: InterfaceOrientationMask, clientMask: InterfaceOrientationMask) {
        self.systemMask = systemMask
        self.clientMask = clientMask
    }

    public var description: String {
        "the system mask \(systemMask) and the client mask \(clientMask) allow no orientation in common"
    }
}

/// Chooses the interface orientation for a device orientation, following UIKit's rules.
public enum OrientationResolver {
    /// The order in which orientations are tried when nothing else decides (rule 5).
    public static let fallbackOrder: [InterfaceOrientation] = [
        .portrait, .landscapeRight, .landscapeLeft, .portraitUpsideDown,
    ]

    /// The interface orientation for device orientation `device`.
    ///
    /// - Parameters:
    ///   - device: the committed device orientation.
    ///   - mask: the effective mask (system ∩ client).
    ///   - current: the interface orientation the client has now.
    ///   - preferred: the client's preferred orientation, if any.
    ///   - locked: whether rotation is locked (system lock or the client's own autorotation switched off).
    /// - Returns: the new interface orientation; `unknown` only while both `device` and `current` are unknown.
    /// - Throws: ``EmptyMaskError`` when `mask` is empty (the caller fills in which masks those were).
    public static func resolve(
        device: DeviceOrientation,
        mask: InterfaceOrientationMask,
        current: InterfaceOrientation,
        preferred: InterfaceOrientation? = nil,
        locked: Bool = false
    ) throws(EmptyMaskError) -> InterfaceOrientation {
        guard !mask.isEmpty else { throw EmptyMaskError(systemMask: mask, clientMask: mask) }
        // No reading yet and nothing drawn yet: nothing to decide.
        if device == .unknown && current == .unknown { return .unknown }
        // 1. A lock holds the current orientation as long as the mask still allows it.
        if locked && mask.allows(current) { return current }
        // 2. An upright device asks for its own orientation.
        if let asked = device.interfaceOrientation, mask.allows(asked) { return asked }
        // 3. Face up/down, unknown, or a disallowed orientation: keep what there is.
        if mask.allows(current) { return current }
        // 4. The client's preference.
        if let preferred, mask.allows(preferred) { return preferred }
        // 5. The first allowed one.
        return fallbackOrder.first(where: mask.allows) ?? .unknown
    }
}
