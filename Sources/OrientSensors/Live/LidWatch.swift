import Logging
import OrientInput
import OrientSampleSource

#if canImport(Glibc)
import Glibc
#endif

/// The lid switch, when an input device reports SW_LID and it could be opened: watched in the capture's own wait,
/// each change delivered. Without it (none, or no access), closed and folded flat are told apart by the last hinge
/// angle, as docs/convertibles.md says. Confined to the capture's thread.
final class LidWatch {
    private var lid: LidSwitch?
    private let logger: Logger
    private let deliver: @Sendable (SensorEvent) -> Void

    /// Opens the lid switch at `node` (the input device udev says has one), if any, and says what it reads.
    init(node: String?, logger: Logger, deliver: @escaping @Sendable (SensorEvent) -> Void) {
        self.logger = logger
        self.deliver = deliver
        guard let node else { return }
        do {
            let opened = try LidSwitch(path: node)
            lid = opened
            logger.info("lid switch \(node): \(opened.closed ? "shut" : "open")")
            deliver(.lid(closed: opened.closed))
        } catch {
            logger.notice("lid switch: \(error); shut and folded flat are told apart by the last hinge angle")
        }
    }

    /// What to poll, `nil` without a switch.
    var descriptor: Int32? { lid?.descriptor }

    /// The descriptor became ready with `events`: a change is read and delivered, a switch that went away dropped.
    func ready(_ events: Int16) {
        guard let lid else { return }
        if events & Int16(POLLIN) == 0 {
            logger.notice("lid switch \(lid.path) went away")
            self.lid = nil
        } else if let closed = lid.readChanges() {
            logger.info("lid switch: \(closed ? "shut" : "open")")
            deliver(.lid(closed: closed))
        }
    }
}
