/// The shape of the built-in panel as installed: the way up it is when the desktop shows its picture unturned.
///
/// The accelerometer's frame is the panel's (x toward its right edge, y toward its top edge), so the classifier
/// finds the panel's pose (``PanelPose``). What that pose is called depends on the panel: on a portrait panel
/// (a phone, a small tablet) upright as installed is `portrait`; on a landscape panel (most convertibles and
/// Windows-class tablets) it is `landscape-left`, as UIKit sees a landscape screen: a portrait device turned
/// counter-clockwise. So masks, `preferred` and the lock mean physical shapes on every panel.
public enum NaturalOrientation: String, Sendable, CaseIterable, Codable {
    case portrait
    case landscape

    /// The natural orientation of a panel `width` by `height` pixels: wider than tall is landscape.
    public init(width: Int, height: Int) {
        self = width > height ? .landscape : .portrait
    }

    /// What a pose of the panel is called on this panel.
    public func deviceOrientation(for pose: PanelPose) -> DeviceOrientation {
        switch (self, pose) {
        case (.portrait, .normal): .portrait
        case (.portrait, .leftUp): .landscapeRight
        case (.portrait, .bottomUp): .portraitUpsideDown
        case (.portrait, .rightUp): .landscapeLeft
        case (.landscape, .normal): .landscapeLeft
        case (.landscape, .leftUp): .portrait
        case (.landscape, .bottomUp): .landscapeRight
        case (.landscape, .rightUp): .portraitUpsideDown
        }
    }

    /// The panel's pose in which the device is held as `device`; `nil` for face up, face down and unknown.
    public func pose(of device: DeviceOrientation) -> PanelPose? {
        PanelPose.allCases.first { deviceOrientation(for: $0) == device }
    }

    /// The pose whose content shows `interface` upright, and so how far the compositor must turn the picture
    /// (``PanelPose/rotation``); `nil` while the interface is unknown.
    public func pose(showing interface: InterfaceOrientation) -> PanelPose? {
        pose(of: interface.deviceOrientation)
    }

    /// A device orientation named as on a portrait panel (the panel's pose) renamed for this panel.
    public func renamed(fromPanelFrame device: DeviceOrientation) -> DeviceOrientation {
        guard let pose = NaturalOrientation.portrait.pose(of: device) else { return device }
        return deviceOrientation(for: pose)
    }
}

/// The `natural-orientation` setting: found from the panel (`auto`), or given.
public enum NaturalOrientationSetting: String, Sendable, CaseIterable {
    case auto
    case portrait
    case landscape
}

/// Which edge of the panel is up, in the panel's own frame: iio-sensor-proxy's names, the same on every panel.
public enum PanelPose: String, Sendable, CaseIterable, Codable {
    /// Upright as installed: the reading is (0, -g, 0).
    case normal
    /// The left edge up: (+g, 0, 0).
    case leftUp = "left-up"
    /// Upside down: (0, +g, 0).
    case bottomUp = "bottom-up"
    /// The right edge up: (-g, 0, 0).
    case rightUp = "right-up"

    /// Degrees counter-clockwise (as the user looks at the panel) that the content must be turned for it to
    /// appear upright in this pose: mutter's transform for the pose; sway's `output transform`, which turns
    /// clockwise, is 360 minus this.
    public var rotation: Int {
        switch self {
        case .normal: 0
        case .leftUp: 90
        case .bottomUp: 180
        case .rightUp: 270
        }
    }
}
