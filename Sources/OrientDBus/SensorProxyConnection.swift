import CSensorProxyBus
import CSystemd
import Logging
import OrientCore
import OrientSampleSource

#if canImport(Glibc)
import Glibc
#endif

/// One connection to the system bus serving net.hadess.SensorProxy. Used on one thread only (sd-bus objects
/// belong to the thread that made them); other threads reach it through the wakeup pipe.
final class SensorProxyConnection {
    /// The kinds whose claims are tracked (every kind: a claim of an absent sensor succeeds and takes effect
    /// when one appears, as in iio-sensor-proxy).
    static let claimable = SensorKind.allCases
    static let busName = "net.hadess.SensorProxy"
    /// Where each property of either object is in the published tables, by name, for reads.
    private static let slots = Dictionary(
        uniqueKeysWithValues: BusObject.allCases.flatMap { object in
            object.properties.enumerated().map { index, property in
                (property.name, (object: object, index: index, signature: property.signature))
            }
        })
    /// The kind each method claims or releases, by member name.
    static let methods = Dictionary(
        uniqueKeysWithValues: SensorKind.allCases.flatMap { kind in
            [(kind.bus.claimMethod, (kind, claim: true)), (kind.bus.releaseMethod, (kind, claim: false))]
        })

    /// How many clients claim `kind`: unique bus names, each dropped by sd-bus when it leaves the bus.
    func claimCount(of kind: SensorKind) -> Int { tracks[kind].map { Int(sd_bus_track_count($0)) } ?? 0 }

    // Internal, not private, for the claims' side of this class (SensorProxyConnection+Claims.swift).
    var bus: OpaquePointer?
    var tracks: [SensorKind: OpaquePointer] = [:]
    private let tables = BusObject.allCases.map(BusObjectTable.init)
    private var objectSlots: [OpaquePointer?] = []
    private var matchSlot: OpaquePointer?
    private var sleepSlot: OpaquePointer?
    /// logind's PrepareForSleep: true as the machine goes to sleep, false as it resumes.
    fileprivate let sleepChanged: (Bool) -> Void
    private let handlers: UnsafeMutablePointer<csp_handlers>
    /// The values clients read, one table per object: those last announced, so a read never runs ahead of
    /// PropertiesChanged.
    private var published = Dictionary(
        uniqueKeysWithValues: BusObject.allCases.map { ($0, $0.values(SensorProxyProperties())) })
    /// What each client was last given of the properties, to catch a new claimant up (``ClientViews``).
    var views = ClientViews()
    /// What the store knew at the last ``process(_:snapshot:)``: when a claim is answered depends on it.
    var snapshot = SensorSnapshot()
    var answers: ClaimAnswers
    /// Claims waiting for a reading, each holding a reference to its call.
    var waiting: [(call: OpaquePointer, waiting: ClaimAnswers.Waiting)] = []
    /// The claim counts at the last look, to see a kind's last claimant leave.
    var counts: [SensorKind: Int] = [:]
    /// Why polkit could not be asked last time, said once until it changes.
    var polkitProblem: String?
    let logger: Logger

    /// Connects to the system bus (DBUS_SYSTEM_BUS_ADDRESS when set), or to the bus at `address`, and registers
    /// the objects. A claim waits at most `claimBound` seconds for a reading.
    init(
        address: String? = nil, claimBound: Double = ClaimAnswers.defaultBound, logger: Logger,
        sleepChanged: @escaping (Bool) -> Void = { _ in }
    ) throws(BusError) {
        self.logger = logger
        self.sleepChanged = sleepChanged
        answers = ClaimAnswers(bound: claimBound)
        handlers = .allocate(capacity: 1)
        handlers.initialize(to: csp_handlers(context: nil, method: handleMethod, property: readProperty))
        handlers.pointee.context = Unmanaged.passUnretained(self).toOpaque()
        do {
            if let address {
                try check("sd_bus_new", sd_bus_new(&bus))
                try check("sd_bus_set_address", sd_bus_set_address(bus, address))
                try check("sd_bus_set_bus_client", sd_bus_set_bus_client(bus, 1))
                try check("sd_bus_start", sd_bus_start(bus))
            } else {
                try check("sd_bus_open_system", sd_bus_open_system_with_description(&bus, "orientd"))
            }
            for kind in Self.claimable {
                var track: OpaquePointer?
                try check("sd_bus_track_new", sd_bus_track_new(bus, &track, nil, nil))
                tracks[kind] = track
            }
            for table in tables {
                var slot: OpaquePointer?
                try check(
                    "sd_bus_add_object_vtable",
                    sd_bus_add_object_vtable(bus, &slot, table.object.path, table.object.interface, table.entries, handlers))
                objectSlots.append(slot)
            }
            try check(
                "sd_bus_match_signal",
                sd_bus_match_signal(
                    bus, &matchSlot, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                    "NameAcquired", nameAcquired, handlers.pointee.context))
            // Only a signal when the machine sleeps or wakes: following it costs no wakeup.
            try check(
                "sd_bus_match_signal",
                sd_bus_match_signal(
                    bus, &sleepSlot, "org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.login1.Manager",
                    "PrepareForSleep", prepareForSleep, handlers.pointee.context))
        } catch {
            release()
            throw error
        }
    }

    deinit {
        release()
        handlers.deallocate()
    }

    /// Asks for the well-known name, queueing behind an owner (iio-sensor-proxy, say) rather than failing.
    /// - Returns: true when the name is ours now.
    func requestName() throws(BusError) -> Bool {
        let flags = UInt64(SD_BUS_NAME_QUEUE)
        return try check("sd_bus_request_name", sd_bus_request_name(bus, Self.busName, flags)) > 0
    }

    /// Handles everything pending; announces the properties that changed since the last call, then answers the
    /// claims that `snapshot` (what `current` was made from) settles.
    func process(_ current: SensorProxyProperties, snapshot: SensorSnapshot) throws(BusError) {
        self.snapshot = snapshot
        answers.take(snapshot)
        while try check("sd_bus_process", sd_bus_process(bus, nil)) > 0 {}
        noteDepartures()
        // Each value computed once and compared once: the store told the facade only of a change; this says which.
        let tables = BusObject.allCases.map { ($0, $0.values(current)) }
        let changed = tables.map { object, values in (object, object.changedNames(values, since: published[object]!)) }
        if changed.contains(where: { !$0.1.isEmpty }) {
            published = Dictionary(uniqueKeysWithValues: tables)
            let claimants = Dictionary(uniqueKeysWithValues: Self.claimable.map { ($0, self.claimants(of: $0)) })
            for (object, names) in changed where !names.isEmpty {
                for (client, heard) in object.recipients(of: names, claimants: claimants) {
                    try emitPropertiesChanged(heard, on: object, to: client)
                }
            }
        }
        // After the values they read have been announced.
        answerSettledClaims()
        // Queue the write now; poll finishes it when the socket is full.
        while try check("sd_bus_process", sd_bus_process(bus, nil)) > 0 {}
    }

    /// What to poll for: the bus descriptor, its events and the timeout in milliseconds (-1: none): sd-bus's own,
    /// or sooner when a waiting claim reaches its bound.
    func waitSpecification() throws(BusError) -> (descriptor: Int32, events: Int16, timeout: Int32) {
        let descriptor = try check("sd_bus_get_fd", sd_bus_get_fd(bus))
        let events = try check("sd_bus_get_events", sd_bus_get_events(bus))
        var deadline: UInt64 = 0
        try check("sd_bus_get_timeout", sd_bus_get_timeout(bus, &deadline))
        let now = Self.monotonicMicroseconds()
        if let first = waiting.map(\.waiting.deadline).min() {
            deadline = min(deadline, UInt64(max(0, first * 1_000_000)))
        }
        guard deadline != UInt64.max else { return (descriptor, Int16(events), -1) }
        let remaining = deadline > now ? (deadline - now + 999) / 1000 : 0
        return (descriptor, Int16(events), Int32(min(remaining, UInt64(Int32.max))))
    }

    private static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
    }

    /// Seconds on the monotonic clock sd-bus uses.
    static func monotonicSeconds() -> Double { Double(monotonicMicroseconds()) / 1_000_000 }

    /// Sends what is queued and leaves the bus (the name is released with the connection).
    func close() {
        if let bus { _ = sd_bus_flush(bus) }
        release()
    }

    private func release() {
        // Unanswered: the connection goes, and with it the callers' calls.
        for entry in waiting { sd_bus_message_unref(entry.call) }
        waiting = []
        matchSlot = sd_bus_slot_unref(matchSlot)
        sleepSlot = sd_bus_slot_unref(sleepSlot)
        for slot in objectSlots { sd_bus_slot_unref(slot) }
        objectSlots = []
        for track in tracks.values { sd_bus_track_unref(track) }
        tracks = [:]
        bus = sd_bus_flush_close_unref(bus)
    }

    /// `PropertiesChanged` for `names` of `object`, with their values, to `client` alone (sd-bus's own emitter
    /// broadcasts).
    func emitPropertiesChanged(_ names: [String], on object: BusObject, to client: String) throws(BusError) {
        var message: OpaquePointer?
        try check(
            "sd_bus_message_new_signal",
            sd_bus_message_new_signal(bus, &message, object.path, "org.freedesktop.DBus.Properties", "PropertiesChanged"))
        defer { sd_bus_message_unref(message) }
        try check("sd_bus_message_set_destination", sd_bus_message_set_destination(message, client))
        try BusMessage.append(message, object.interface)
        try BusMessage.open(message, "a", "{sv}")
        for name in names {
            guard let slot = Self.slots[name] else { continue }
            try BusMessage.open(message, "e", "sv")
            try BusMessage.append(message, name)
            try BusMessage.open(message, "v", slot.signature)
            try check("sd_bus_message_append_basic", self.property(message, name: name))
            try BusMessage.close(message)
            try BusMessage.close(message)
        }
        try BusMessage.close(message)
        // No invalidated properties.
        try BusMessage.open(message, "a", "s")
        try BusMessage.close(message)
        try check("sd_bus_send", sd_bus_send(bus, message, nil))
    }

    /// A property's value as clients read it now; nil for a name the tables do not hold.
    func publishedValue(of name: String) -> BusValue? {
        guard let slot = Self.slots[name] else { return nil }
        return published[slot.object]?[slot.index]
    }

    /// Appends a property's value to a reply or a signal, noting that its destination was given it.
    fileprivate func property(_ reply: OpaquePointer?, name: String) -> Int32 {
        // The tables name no other property.
        guard let value = publishedValue(of: name) else { return -EINVAL }
        if let client = sd_bus_message_get_destination(reply) { views.note(value, of: name, to: String(cString: client)) }
        switch value {
        case .boolean(let value):
            var flag: Int32 = value ? 1 : 0
            return sd_bus_message_append_basic(reply, BusMessage.code("b"), &flag)
        case .double(let value):
            var number = value
            return sd_bus_message_append_basic(reply, BusMessage.code("d"), &number)
        case .string(let value):
            return value.withCString { sd_bus_message_append_basic(reply, BusMessage.code("s"), $0) }
        }
    }

    fileprivate func acquiredName(_ message: OpaquePointer?) {
        var name: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(message, BusMessage.code("s"), &name) > 0, let name,
            String(cString: name) == Self.busName
        else { return }
        logger.notice("now serving \(Self.busName) on the system bus")
    }
}

// The C tables call these with the connection as context.

private func connection(_ context: UnsafeMutableRawPointer?) -> SensorProxyConnection {
    Unmanaged<SensorProxyConnection>.fromOpaque(context!).takeUnretainedValue()
}

private let handleMethod: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, UnsafeMutablePointer<sd_bus_error>?) -> Int32 = {
    context, call, member, _ in
    connection(context).method(call, member: member.map { String(cString: $0) } ?? "")
}

private let readProperty: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, UnsafeMutablePointer<sd_bus_error>?) -> Int32 = {
    context, reply, name, _ in
    connection(context).property(reply, name: name.map { String(cString: $0) } ?? "")
}

private let prepareForSleep: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<sd_bus_error>?) -> Int32 = {
    message, context, _ in
    var sleeping: Int32 = 0
    if sd_bus_message_read_basic(message, BusMessage.code("b"), &sleeping) > 0 {
        connection(context).sleepChanged(sleeping != 0)
    }
    return 0
}

private let nameAcquired: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<sd_bus_error>?) -> Int32 = {
    message, context, _ in
    connection(context).acquiredName(message)
    return 0
}
