import ArgumentParser
import OrientCore
import OrientProtocol

/// A client's own settings (the subscribe request's `mask`, `preferred` and `autorotate`), shared by `get`,
/// `monitor` and `watch`.
///
/// They are checked here, with the same parsers the daemon uses, so that a typo is a usage error naming the
/// option (exit 64) rather than a refusal from the daemon.
struct SubscriptionOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "This client's mask, intersected with the system mask: "
                + InterfaceOrientationMask.named.map(\.name).joined(separator: ", ")
                + ", or a union such as portrait|landscape.",
            valueName: "mask"),
        completion: .list(InterfaceOrientationMask.named.map(\.name)))
    var mask: String?

    @Option(
        help: ArgumentHelp(
            "This client's preferred orientation, used when the device orientation decides nothing (lying flat): "
                + InterfaceOrientation.drawable.map(\.rawValue).joined(separator: ", ") + ".",
            valueName: "orientation"),
        completion: .list(InterfaceOrientation.drawable.map(\.rawValue)))
    var preferred: String?

    @Flag(help: "Hold this client's interface orientation where it is (the client's own rotation lock).")
    var noAutorotate = false

    func validate() throws {
        if let mask {
            do {
                _ = try InterfaceOrientationMask(parsing: mask)
            } catch {
                throw ValidationError("--mask: \(error)")
            }
        }
        if let preferred {
            do {
                _ = try InterfaceOrientation(parsingDrawable: preferred)
            } catch {
                throw ValidationError("--preferred: \(error)")
            }
        }
    }

    /// The settings a `get` carries: `nil` when none was given, for the system's view.
    var given: SubscriptionSettings? {
        mask == nil && preferred == nil && !noAutorotate ? nil : subscription()
    }

    /// The settings a `subscribe` carries; those not given are the daemon's defaults.
    func subscription(changes: ChangeFilter = .all) -> SubscriptionSettings {
        // Both were checked by validate().
        SubscriptionSettings(
            mask: mask.flatMap { try? InterfaceOrientationMask(parsing: $0) } ?? .all,
            preferred: preferred.flatMap(InterfaceOrientation.init(rawValue:)), changes: changes,
            autorotate: !noAutorotate)
    }
}
