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
    /// Each property of either object by name, for reads.
    private static let properties = Dictionary(
        uniqueKeysWithValues: BusObject.allCases.flatMap(\.properties).map { ($0.name, $0) })
    /// The kind each method claims or releases, by member name.
    private static let methods = Dictionary(
        uniqueKeysWithValues: SensorKind.allCases.flatMap { kind in
            [(kind.bus.claimMethod, (kind, claim: true)), (kind.bus.releaseMethod, (kind, claim: false))]
        })

    /// How many clients claim `kind`: unique bus names, each dropped by sd-bus when it leaves the bus.
    func claimCount(of kind: SensorKind) -> Int { tracks[kind].map { Int(sd_bus_track_count($0)) } ?? 0 }

    private var bus: OpaquePointer?
    private var tracks: [SensorKind: OpaquePointer] = [:]
    private let tables = BusObject.allCases.map(BusObjectTable.init)
    private var objectSlots: [OpaquePointer?] = []
    private var matchSlot: OpaquePointer?
    private let handlers: UnsafeMutablePointer<csp_handlers>
    /// The values clients read: those last announced, so a read never runs ahead of PropertiesChanged.
    private var published = SensorProxyProperties()
    private let logger: Logger

    /// Connects to the system bus (DBUS_SYSTEM_BUS_ADDRESS when set), or to the bus at `address`, and registers
    /// the objects.
    init(address: String? = nil, logger: Logger) throws(BusError) {
        self.logger = logger
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

    /// Handles everything pending; announces the properties that changed since the last call.
    func process(_ current: SensorProxyProperties) throws(BusError) {
        while try check("sd_bus_process", sd_bus_process(bus, nil)) > 0 {}
        guard current != published else { return }
        let changed = BusObject.allCases.map { ($0, $0.changedNames(current, since: published)) }
        published = current
        for (object, names) in changed where !names.isEmpty {
            try emitPropertiesChanged(names, path: object.path, interface: object.interface)
        }
        // Queue the write now; poll finishes it when the socket is full.
        while try check("sd_bus_process", sd_bus_process(bus, nil)) > 0 {}
    }

    /// What to poll for: the bus descriptor, its events and the timeout in milliseconds (-1: none).
    func waitSpecification() throws(BusError) -> (descriptor: Int32, events: Int16, timeout: Int32) {
        let descriptor = try check("sd_bus_get_fd", sd_bus_get_fd(bus))
        let events = try check("sd_bus_get_events", sd_bus_get_events(bus))
        var deadline: UInt64 = 0
        try check("sd_bus_get_timeout", sd_bus_get_timeout(bus, &deadline))
        guard deadline != UInt64.max else { return (descriptor, Int16(events), -1) }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        let remaining = deadline > nowMicroseconds ? (deadline - nowMicroseconds + 999) / 1000 : 0
        return (descriptor, Int16(events), Int32(min(remaining, UInt64(Int32.max))))
    }

    /// Sends what is queued and leaves the bus (the name is released with the connection).
    func close() {
        if let bus { _ = sd_bus_flush(bus) }
        release()
    }

    private func release() {
        matchSlot = sd_bus_slot_unref(matchSlot)
        for slot in objectSlots { sd_bus_slot_unref(slot) }
        objectSlots = []
        for track in tracks.values { sd_bus_track_unref(track) }
        tracks = [:]
        bus = sd_bus_flush_close_unref(bus)
    }

    private func emitPropertiesChanged(_ names: [String], path: String, interface: String) throws(BusError) {
        var strings: [UnsafeMutablePointer<CChar>?] = names.map { strdup($0) } + [nil]
        defer { for string in strings { free(string) } }
        try check(
            "sd_bus_emit_properties_changed_strv",
            sd_bus_emit_properties_changed_strv(bus, path, interface, &strings))
    }

    fileprivate func method(_ call: OpaquePointer?, member: String) -> Int32 {
        let sender = sd_bus_message_get_sender(call).map { String(cString: $0) } ?? "?"
        // Claiming an absent sensor succeeds, as in iio-sensor-proxy (its monitor-sensor claims the accelerometer,
        // light and proximity and quits on any error).
        guard let (kind, claim) = Self.methods[member], let track = tracks[kind] else { return 0 }
        let result = claim ? sd_bus_track_add_sender(track, call) : sd_bus_track_remove_sender(track, call)
        logger.debug("\(sender) \(claim ? "claimed" : "released") the \(kind.displayName)")
        return min(result, 0)
    }

    fileprivate func property(_ reply: OpaquePointer?, name: String) -> Int32 {
        // The tables name no other property.
        guard let property = Self.properties[name] else { return -EINVAL }
        switch property.value(published) {
        case .boolean(let value):
            var flag: Int32 = value ? 1 : 0
            return sd_bus_message_append_basic(reply, CChar(UInt8(ascii: "b")), &flag)
        case .double(let value):
            var number = value
            return sd_bus_message_append_basic(reply, CChar(UInt8(ascii: "d")), &number)
        case .string(let value):
            return value.withCString { sd_bus_message_append_basic(reply, CChar(UInt8(ascii: "s")), $0) }
        }
    }

    fileprivate func acquiredName(_ message: OpaquePointer?) {
        var name: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &name) > 0, let name,
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

private let nameAcquired: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<sd_bus_error>?) -> Int32 = {
    message, context, _ in
    connection(context).acquiredName(message)
    return 0
}
