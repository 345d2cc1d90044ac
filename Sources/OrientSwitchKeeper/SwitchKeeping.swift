/// What the keeper does to its uinput device for each command from orientd, and when orientd's stream ends. Pure:
/// the loop (``SwitchKeeper``) carries the actions out.
struct SwitchKeeping: Equatable {
    enum Action: Equatable {
        /// Make the device (EV_SW and SW_TABLET_MODE only), reporting 0.
        case create
        /// Report the switch's state.
        case report(on: Bool)
        /// Remove the device.
        case destroy
    }

    /// Whether the device exists, and what it reports.
    private(set) var exists = false
    private(set) var reportsOn = false

    /// The actions that make the device say what `command` says.
    mutating func take(_ command: SwitchCommand) -> [Action] {
        switch command {
        case .on, .off:
            var actions: [Action] = []
            if !exists {
                actions.append(.create)
                exists = true
                reportsOn = false
            }
            let on = command == .on
            if on != reportsOn {
                actions.append(.report(on: on))
                reportsOn = on
            }
            return actions
        case .none:
            return clear()
        }
    }

    /// orientd's stream ended (it stopped, or the connection broke), or the keeper stops: a switch left on would
    /// keep the keyboard off with nobody to turn it back, so it reports 0 and goes.
    mutating func clear() -> [Action] {
        guard exists else { return [] }
        var actions: [Action] = []
        if reportsOn { actions.append(.report(on: false)) }
        actions.append(.destroy)
        exists = false
        reportsOn = false
        return actions
    }
}
