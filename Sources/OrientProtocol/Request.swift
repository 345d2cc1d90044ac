import OrientCore

/// A request's `id`, echoed in the reply: a string or a number, as the client sent it.
public enum RequestID: Sendable, Equatable, Hashable, Codable {
    case number(Double)
    case string(String)

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let n): try container.encode(n)
        case .string(let s): try container.encode(s)
        }
    }
}

/// Which changes wake a subscriber.
public enum ChangeFilter: String, Sendable, Equatable, Codable {
    /// Every change of device orientation, interface orientation, lock or sensor state.
    case all
    /// Only changes of this subscriber's interface orientation.
    case interface
    /// No orientation events at all: for a subscriber that wants only what else it asked for (the tablet-mode
    /// switch's state).
    case none
}

/// What a subscriber asks for: UIKit's `supportedInterfaceOrientations`,
/// `preferredInterfaceOrientationForPresentation` and `shouldAutorotate`.
public struct SubscriptionSettings: Sendable, Equatable {
    public var mask: InterfaceOrientationMask
    public var preferred: InterfaceOrientation?
    public var changes: ChangeFilter
    public var autorotate: Bool
    /// Also sent the tablet-mode switch's state (``TabletModeSwitchState``), after the reply and at each change.
    public var tabletModeSwitch: Bool

    public init(
        mask: InterfaceOrientationMask = .all, preferred: InterfaceOrientation? = nil, changes: ChangeFilter = .all,
        autorotate: Bool = true, tabletModeSwitch: Bool = false
    ) {
        self.mask = mask
        self.preferred = preferred
        self.changes = changes
        self.autorotate = autorotate
        self.tabletModeSwitch = tabletModeSwitch
    }
}

/// One request line, decoded and checked.
public struct Request: Sendable, Equatable {
    public enum Operation: Sendable, Equatable {
        /// The current state: under the system mask, or as a client with these settings would see it now; and
        /// the one-value sensors asked for.
        case get(SubscriptionSettings?, readings: Set<SensorKind> = [])
        /// Subscribe, or change this connection's subscription settings; events of the one-value sensors asked
        /// for come besides the orientation's.
        case subscribe(SubscriptionSettings, readings: Set<SensorKind> = [])
        case unsubscribe
        case lock
        case unlock
        /// A new system mask; `nil` goes back to the configured one.
        case setMask(InterfaceOrientationMask?)
        case status

        /// The operation as spelled in `op`.
        public var name: String {
            switch self {
            case .get: "get"
            case .subscribe: "subscribe"
            case .unsubscribe: "unsubscribe"
            case .lock: "lock"
            case .unlock: "unlock"
            case .setMask: "set-mask"
            case .status: "status"
            }
        }
    }

    public var id: RequestID?
    public var operation: Operation

    public init(id: RequestID? = nil, _ operation: Operation) {
        self.id = id
        self.operation = operation
    }
}
