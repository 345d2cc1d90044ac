import Logging
import OrientPosix

/// Gives back the code and constants that start-up touched (``ResidentPages``) once start-up work is behind the
/// daemon: when it starts serving, when the D-Bus facade has asked for its name (it connects once udev has said
/// which sensors are there, after the socket serves), and when a sensor it opened has committed its first orientation
/// (opening libiio's context and the first look-ups of the engine's types are start-up work too). What serving
/// clients runs comes back at its first touch.
///
/// It runs on the event loop, which it holds for about 6 ms (measured here): the loop's thread already has its heap,
/// where another thread would start one of its own (glibc gives each thread that allocates an arena).
struct StartupPages: Sendable {
    let logger: Logger

    func release(_ moment: String) {
        let started = ContinuousClock.now
        do {
            let released = try ResidentPages.releaseRereadable()
            logger.debug(
                "\(moment): gave back \(released.residentKiB) KiB of code and constants (\(released.mappings) mappings) in \(ContinuousClock.now - started)")
        } catch {
            logger.debug("\(moment): could not read /proc/self/smaps to give back start-up pages: \(error)")
        }
    }
}
