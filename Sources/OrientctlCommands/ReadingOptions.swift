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

    var asked: Set<SensorKind> {
        var kinds: Set<SensorKind> = []
        if light { kinds.insert(.light) }
        if proximity { kinds.insert(.proximity) }
        return kinds
    }
}
