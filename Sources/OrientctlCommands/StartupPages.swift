import OrientPosix

/// Gives back the code and constants that start-up touched (``ResidentPages``, as the daemon does), for the
/// commands that stay running: monitor, watch and follow call it once subscribed. What they run afterwards
/// comes back at its first touch, from the page cache.
func releaseStartupPages() {
    _ = try? ResidentPages.releaseRereadable()
}
