import NIOCore
import OrientConfiguration

/// The publisher as a configured part: the system mask and preferred orientation, the sampling policy and
/// rotate-in shown in `status` and applied to the views, and the panel that names the poses. Applied on the
/// publisher's event loop.
public struct PublisherPart: ConfiguredPart {
    private let publisher: NIOLoopBound<Publisher>
    /// How long a `get` waits for a fresh state: not a setting (`--replay-wait-for` turns it off).
    private let freshWait: Double?

    public init(_ publisher: NIOLoopBound<Publisher>, freshWait: Double?) {
        self.publisher = publisher
        self.freshWait = freshWait
    }

    public static let reads = SettingsRead(
        whileRunning: [
            \.systemMask, \.preferred, \.naturalOrientation, \.engine.mountRepair, \.sampling, \.engine.rotateIn,
            \.tabletModeSwitch,
        ])

    public static func slice(of settings: RunSettings) -> Publisher.Settings {
        let c = settings.configuration
        return Publisher.Settings(
            configuredMask: c.systemMask, preferred: c.preferred, sampling: c.sampling, mountRepair: c.engine.mountRepair,
            rotateIn: c.engine.rotateIn, panel: settings.panel, tabletModeSwitch: c.tabletModeSwitch)
    }

    public func apply(_ slice: Publisher.Settings) async -> Refusal? {
        var settings = slice
        settings.freshWait = freshWait
        let publisher = self.publisher
        let problem = try? await publisher.eventLoop.submit { publisher.value.reconfigure(settings) }.get()
        return problem.flatMap { $0 }.map { Refusal(["mask"], reason: $0) }
    }
}
