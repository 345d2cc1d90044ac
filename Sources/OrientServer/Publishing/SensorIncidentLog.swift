import OrientCore
import OrientProtocol

/// What each sensor ran into since the daemon started, for `status` (``StatusReport/Incidents``): a count and the
/// last one per kind. Pure.
struct SensorIncidentLog {
    private var byKind: [SensorKind: StatusReport.Incidents] = [:]

    /// Records `what` of `kind`, `uptime` seconds after the daemon started.
    mutating func record(_ what: String, of kind: SensorKind, uptime: Double) {
        let count = (byKind[kind]?.count ?? 0) + 1
        byKind[kind] = StatusReport.Incidents(sensor: kind.rawValue, count: count, last: what, at: (uptime * 10).rounded() / 10)
    }

    /// The kinds that ran into something and may be shown on the socket, in the order `status` lists kinds.
    var report: [StatusReport.Incidents] {
        SensorKind.allCases.filter(StatusReport.showsIncidents).compactMap { byKind[$0] }
    }
}
