/// What orientd tells a subscriber that keeps the tablet-mode switch (`"tablet-mode-switch":true`): whether a switch
/// should exist now, and what it reports. orientd decides (``TabletModeSwitchDecision``); the subscriber, which alone
/// may write /dev/uinput, only follows.
public enum TabletModeSwitchState: String, Sendable, Codable, CaseIterable {
    /// Tablet mode: the switch reports 1.
    case on
    /// Not in tablet mode, or not known (no base reading, the base lost): the switch reports 0.
    case off
    /// No switch should exist: the machine has its own, nothing tells the posture, or the setting says no.
    case none
}
