import OrientCore
import OrientProtocol

extension HingeState {
    /// Takes what a posture change moved; what it leaves out stays as it was.
    mutating func apply(_ change: PostureEngine.Change) {
        if let posture = change.posture { self.posture = posture }
        if let tabletMode = change.tabletMode { self.tabletMode = tabletMode }
        if let hingeAngle = change.hingeAngle { self.hingeAngle = hingeAngle }
    }
}
