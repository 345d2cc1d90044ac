import ArgumentParser
import OrientCore
import OrientProtocol

/// The one-value sensors a client asks for besides the orientation (the request's `readings`), shared by `get`
/// and `monitor`.
struct ReadingOptions: ParsableArguments {
    @Flag(help: "Also show the ambient light level (the daemon reads the light sensor while this client asks).")
    var light = false

    @Flag(help: "Also show whether something is near the proximity sensor (read while this client asks).")
    var proximity = false

    var asked: Set<SensorKind> { Set(SensorKind.readings.filter(isAsked)) }

    /// Each kind the socket offers has its flag above: a new kind is named here by the compiler, and needs one.
    private func isAsked(_ kind: SensorKind) -> Bool {
        switch kind {
        case .light: light
        case .proximity: proximity
        // Not offered as a reading on the socket (SensorKind.socket).
        case .accelerometer, .compass: false
        }
    }
}
