/// Which devices a ``UdevSession``'s enumerations report once it watches their subsystem: those its first
/// enumeration found (and udevd had processed, where it runs), and those announced added since, less those announced
/// removed. Kept apart from libudev, so that a test can play udev's events and enumerations at it.
struct UdevAdmission {
    /// One enumeration of a subsystem's devices, as ``enumeration(of:sysname:)`` starts it.
    struct Enumeration {
        /// Whether its subsystem is watched: only then must a device be admitted.
        let gated: Bool
        /// Whether it is the first of its subsystem and name pattern since the watch began: it admits what it finds.
        let first: Bool
    }

    /// The subsystems the monitor listens to: only their enumerations are gated.
    private var watched: Set<String> = []
    /// The (subsystem, sysname pattern) enumerations made once already: from the second on, a device must be admitted.
    private var enumerated: Set<String> = []
    /// The sysfs paths of devices found by a first enumeration or announced added, and not removed since.
    private var admitted: Set<String> = []
    /// The sysfs paths of devices announced as removed and not added since.
    private var removed: Set<String> = []

    /// The monitor listens to `subsystems` from now on. What an enumeration found while nothing was watched was not
    /// admitted: the next one of each admits afresh.
    mutating func watch(_ subsystems: [String]) {
        watched = Set(subsystems)
        enumerated = []
    }

    /// Starts an enumeration of the devices of `subsystem` whose name matches `sysname` (nil: all).
    mutating func enumeration(of subsystem: String, sysname: String?) -> Enumeration {
        let first = enumerated.insert("\(subsystem)/\(sysname ?? "*")").inserted
        return Enumeration(gated: watched.contains(subsystem), first: first)
    }

    /// Whether the device at `path` was announced as removed and not added since: left out before it is looked at.
    func hides(_ path: String) -> Bool { removed.contains(path) }

    /// Whether `enumeration` reports the device at `path`; `initialized` says whether udevd has processed it (true
    /// where udevd does not run), asked only of a first enumeration.
    mutating func admits(_ path: String, in enumeration: Enumeration, initialized: () -> Bool) -> Bool {
        guard enumeration.gated else { return true }
        if enumeration.first, initialized() {
            admitted.insert(path)
            return true
        }
        return admitted.contains(path)
    }

    /// udev announced `action` for the device at `path`: an `add` admits it to enumerations; a `remove` hides it
    /// until its next `add`.
    mutating func take(_ action: String, path: String) {
        if action == "remove" {
            removed.insert(path)
            admitted.remove(path)
        } else if action == "add" {
            removed.remove(path)
            admitted.insert(path)
        }
    }
}
