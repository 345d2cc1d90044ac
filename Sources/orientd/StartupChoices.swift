import OrientConfiguration

/// What the daemon's wiring (``Daemon``) decides once, at start, from the configuration: where the socket and
/// the state live, which accelerometer to read, and whether the D-Bus facade exists. A
/// configured part like the others, so that a reload names each of these, when changed, as waiting for the next
/// start.
struct StartupChoices: ConfiguredPart {
    struct Slice: Sendable, Equatable {
        var socketPath: String
        var socketMode: UInt16
        var stateDirectory: String
        var device: String?
        var dbus: Bool
    }

    static let reads = SettingsRead(
        atStart: [\.socketPath, \.socketMode, \.stateDirectory, \.device, \.dbus])

    static func slice(of settings: RunSettings) -> Slice {
        let c = settings.configuration
        return Slice(
            socketPath: c.socketPath, socketMode: c.socketMode, stateDirectory: c.stateDirectory, device: c.device,
            dbus: c.dbus)
    }

    /// Nothing to do: the wiring has used the slice it started with.
    func apply(_ slice: Slice) async -> Refusal? { nil }
}
