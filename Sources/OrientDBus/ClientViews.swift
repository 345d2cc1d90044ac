/// What each client was last given of the facade's properties: read (`Get`, `GetAll`) or told (`PropertiesChanged`).
/// Pure: no bus.
///
/// A change is signalled only to the claimants of its kind (as in iio-sensor-proxy). A client that reads the
/// properties and then claims, as GIO's proxies do (monitor-sensor, gnome-settings-daemon), misses a change that came
/// in between, while the sensor was read for others (a socket client, another claimant): it would show the old value
/// until the next change, which for a device held still never comes. So when a claim is taken, the claimant is told
/// each of its kind's properties that differ from what it was last given (``catchUp(_:for:current:)``). A client
/// that claims first and reads after (mutter) was given nothing before, and is told nothing.
///
/// Bounded: the last ``limit`` clients to be given anything are remembered; one that read longer ago than that is
/// not caught up.
struct ClientViews {
    static let limit = 64

    /// Per client, each property's value as it was last given.
    private var given: [String: [String: BusValue]] = [:]
    /// Clients, the one given something longest ago first.
    private var recency: [String] = []

    /// `client` was given `value` for property `name`.
    mutating func note(_ value: BusValue, of name: String, to client: String) {
        if given[client] == nil {
            if recency.count >= Self.limit { given.removeValue(forKey: recency.removeFirst()) }
        } else if recency.last != client {
            recency.removeAll { $0 == client }
        }
        if recency.last != client { recency.append(client) }
        given[client, default: [:]][name] = value
    }

    /// Which of `names` `client` was given with a value other than `current`'s, in the order of `names`; each is taken
    /// as given now (the caller tells them). Properties it was never given are left out.
    mutating func catchUp(_ names: [String], for client: String, current: (String) -> BusValue?) -> [String] {
        guard let seen = given[client] else { return [] }
        let stale = names.compactMap { name -> (name: String, now: BusValue)? in
            guard let old = seen[name], let now = current(name), old != now else { return nil }
            return (name, now)
        }
        for (name, now) in stale { note(now, of: name, to: client) }
        return stale.map(\.name)
    }

    /// How many clients are remembered.
    var count: Int { given.count }
}
