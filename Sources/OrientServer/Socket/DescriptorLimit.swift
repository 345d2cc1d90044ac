import Logging

#if canImport(Glibc)
import Glibc
#endif

/// Fits `max-clients` into the open-file limit.
///
/// Every client holds a descriptor, and the soft RLIMIT_NOFILE is 1024 under systemd and most shells: with the
/// default max-clients (1024) the daemon would run out before the limit it advertises. Out of descriptors,
/// accept() fails and NIO backs off, so the extra clients hang with no answer at all. Raising the soft limit to
/// the hard one needs no privilege. When even the hard limit is too low, fewer clients are admitted, so that
/// one too many still gets the `too-many-clients` line instead of a hang.
package enum DescriptorLimit {
    /// Descriptors the daemon needs besides its clients: standard streams, the event loop's epoll, eventfd and
    /// timerfd, the listening socket, udev's monitor, the sensor, the state file being written, and the one
    /// accepted only to be refused. About 15 are open at once; twice that leaves room.
    package static let reserve = 32

    /// Raises the soft limit to the hard one if `maxClients` do not fit, and says so.
    /// - Returns: how many clients to admit: `maxClients`, or fewer when the hard limit is too low.
    package static func fit(maxClients: Int, logger: Logger) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
            logger.warning("cannot read the open-file limit: \(String(cString: strerror(errno)))")
            return maxClients
        }
        let needed = rlim_t(maxClients + reserve)
        if limit.rlim_cur < needed, limit.rlim_cur < limit.rlim_max {
            let before = limit.rlim_cur
            limit.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
                logger.notice("raised the open-file limit from \(before) to \(limit.rlim_cur) for max-clients \(maxClients)")
            } else {
                logger.warning("cannot raise the open-file limit from \(before): \(String(cString: strerror(errno)))")
                limit.rlim_cur = before
            }
        }
        guard limit.rlim_cur < needed else { return maxClients }
        let fitting = max(1, Int(clamping: limit.rlim_cur) - reserve)
        logger.warning(
            "the open-file limit is \(limit.rlim_cur) (hard \(limit.rlim_max)): admitting \(fitting) clients, not max-clients \(maxClients)")
        return fitting
    }
}
