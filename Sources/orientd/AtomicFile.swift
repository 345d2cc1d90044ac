import OrientPosix

/// The atomic writer now lives in OrientPosix, shared with the state file; the name stays for the commands here.
typealias AtomicFile = OrientPosix.AtomicFile
