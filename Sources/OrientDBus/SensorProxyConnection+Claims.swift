import CSystemd
import Logging
import OrientCore

#if canImport(Glibc)
import Glibc
#endif

/// The claims' side of the connection: a `Claim*` or `Release*` call asked of polkit, then carried out on sd-bus's
/// per-sender tracks, and answered at once or once its sensor has read (``ClaimAnswers``).
extension SensorProxyConnection {
    /// A claim or a release: polkit is asked first (``PolkitCheck``), as iio-sensor-proxy asks it for both, and the
    /// call is answered once it has answered. Returns 1: the call is kept and answered later.
    func method(_ call: OpaquePointer?, member: String) -> Int32 {
        guard let (kind, claim) = Self.methods[member], let call else { return 0 }
        PolkitCheck.ask(about: call, on: bus) { [weak self] call, answer in
            let sender = sd_bus_message_get_sender(call).map { String(cString: $0) } ?? "?"
            self?.authorized(call, kind: kind, claim: claim, sender: sender, answer)
        }
        return 1
    }

    /// Carries out a claim or a release that polkit answered, and replies: iio-sensor-proxy's error when it refused
    /// or could not be asked (where polkit is not running, every claim is refused, as in iio-sensor-proxy).
    private func authorized(_ call: OpaquePointer, kind: SensorKind, claim: Bool, sender: String, _ answer: PolkitCheck.Answer) {
        switch answer {
        case .allowed:
            polkitProblem = nil
            let result = claim ? addClaim(call, kind: kind, sender: sender) : dropClaim(call, kind: kind, sender: sender)
            if result == 0 {
                reply(to: call)
            } else if result < 0 {
                _ = sd_bus_reply_method_errno(call, -result, nil)
            }
        case .refused:
            logger.info("polkit refused \(sender) the \(kind.displayName) (\(PolkitCheck.action))")
            reply(to: call, error: "org.freedesktop.DBus.Error.AccessDenied", "Not Authorized: Sensor claim not allowed")
        case .failed(let problem):
            if problem != polkitProblem {
                logger.warning("cannot ask polkit whether a client may use a sensor: \(problem); claims are refused meanwhile, as iio-sensor-proxy refuses them")
                polkitProblem = problem
            }
            reply(to: call, error: "org.freedesktop.DBus.Error.AccessDenied", "Not Authorized: \(problem)")
        }
    }

    /// Returns 0 to have the claim answered now, a negative errno to fail it, or 1 when it waits for a reading
    /// (``ClaimAnswers``) and is answered later.
    private func addClaim(_ call: OpaquePointer, kind: SensorKind, sender: String) -> Int32 {
        // Claiming an absent sensor succeeds, as in iio-sensor-proxy (its monitor-sensor claims the accelerometer,
        // light and proximity and quits on any error).
        guard let track = tracks[kind] else { return 0 }
        noteDepartures()
        // A client that claims already is answered at once, as in iio-sensor-proxy.
        if sd_bus_track_contains(track, sender) != nil { return 0 }
        let result = sd_bus_track_add_sender(track, call)
        guard result >= 0 else { return result }
        counts[kind] = claimCount(of: kind)
        logger.debug("\(sender) claimed the \(kind.displayName)")
        catchUp(sender, on: kind)
        guard !answers.answersAtOnce(kind, in: snapshot) else { return 0 }
        sd_bus_message_ref(call)
        waiting.append((call, answers.waiting(kind, in: snapshot, now: Self.monotonicSeconds())))
        return 1
    }

    /// Tells a new claimant what changed of its kind's properties since it last read them (``ClientViews``): before
    /// the claim's answer, so that the client's view is current when its claim returns.
    private func catchUp(_ client: String, on kind: SensorKind) {
        let binding = kind.bus
        let stale = views.catchUp(binding.properties.map(\.name), for: client) { publishedValue(of: $0) }
        guard !stale.isEmpty else { return }
        let announced = Set(binding.properties.filter { stale.contains($0.name) }.flatMap(\.announcement))
        let names = binding.object.properties.map(\.name).filter(announced.contains)
        logger.debug("\(client) read \(names.joined(separator: ", ")) before a change it was not told of: told now")
        do {
            try emitPropertiesChanged(names, on: binding.object, to: client)
        } catch {
            logger.debug("cannot tell \(client) what changed: \(error)")
        }
    }

    private func dropClaim(_ call: OpaquePointer, kind: SensorKind, sender: String) -> Int32 {
        guard let track = tracks[kind] else { return 0 }
        noteDepartures()
        let result = sd_bus_track_remove_sender(track, call)
        logger.debug("\(sender) released the \(kind.displayName)")
        noteDepartures()
        return min(result, 0)
    }

    private func reply(to call: OpaquePointer) {
        var reply: OpaquePointer?
        if sd_bus_message_new_method_return(call, &reply) >= 0 { _ = sd_bus_send(bus, reply, nil) }
        sd_bus_message_unref(reply)
    }

    private func reply(to call: OpaquePointer, error name: String, _ message: String) {
        var error = sd_bus_error()
        sd_bus_error_set(&error, name, message)
        _ = sd_bus_reply_method_error(call, &error)
        sd_bus_error_free(&error)
    }

    /// Tells ``ClaimAnswers`` of each kind whose last claimant left (released it, or left the bus).
    func noteDepartures() {
        for kind in Self.claimable {
            let count = claimCount(of: kind)
            if count == 0, counts[kind, default: 0] > 0 { answers.lastClaimGone(kind, in: snapshot) }
            counts[kind] = count
        }
    }

    /// Answers each waiting claim that has its reading, has reached its bound, or lost its sensor.
    func answerSettledClaims() {
        guard !waiting.isEmpty else { return }
        let now = Self.monotonicSeconds()
        waiting.removeAll { entry in
            guard let outcome = answers.outcome(of: entry.waiting, in: snapshot, now: now) else { return false }
            defer { sd_bus_message_unref(entry.call) }
            switch outcome {
            case .answer, .timedOut:
                if outcome == .timedOut {
                    logger.warning(
                        "the \(entry.waiting.kind.displayName) gave no reading within \(Int(answers.bound)) s of a claim; answered without one, the reading will follow as PropertiesChanged")
                }
                reply(to: entry.call)
            case .sensorRemoved:
                reply(to: entry.call, error: "org.freedesktop.DBus.Error.Failed", "Sensor removed while waiting for it to start up")
            }
            return true
        }
    }

    /// The unique names of the clients that claim `kind`.
    func claimants(of kind: SensorKind) -> [String] {
        guard let track = tracks[kind] else { return [] }
        var names: [String] = []
        var name = sd_bus_track_first(track)
        while let current = name {
            names.append(String(cString: current))
            name = sd_bus_track_next(track)
        }
        return names
    }
}
