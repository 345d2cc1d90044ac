import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The same lifecycle script, run against orientd and against iio-sensor-proxy's own daemon, each on its own private
/// bus under its own umockdev testbed, for every driver both serve; what a D-Bus client sees must agree. The one
/// difference asked for, orientd's light filter, is switched off here (`light-threshold = 0`) and tested in
/// LightSensorTests; where iio-sensor-proxy 3.0 is known to do worse, the difference is asserted.
@Suite(
    "orientd and iio-sensor-proxy side by side through each sensor's lifecycle",
    .enabled(if: PrivateBus.isAvailable, Comment(rawValue: PrivateBus.skipReason)),
    .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)),
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: SideBySideBench.sensorProxyDaemon),
        "needs iio-sensor-proxy's daemon (Debian's iio-sensor-proxy)"))
struct SideBySideLifecycleTests {
    /// One step of the script as a client should see it: the sensor present or not, the value read, and the values
    /// published meanwhile (the value property's only).
    struct Expected {
        let step: String
        let present: Bool
        let reads: String
        let published: [String]
    }

    /// The script: each step acts, waits for what a client should then see (or, for what must not be published, two
    /// reads of the sensor), and records what it sees.
    static func run(_ driver: SideBySideDriver, on daemon: SideBySideDaemon) throws -> (seen: [SideBySideObservation], log: String) {
        let readings = driver.readings
        var seen: [SideBySideObservation] = []
        let bench = try SideBySideBench(driver, daemon)
        try bench.plug(readings[0].raw)
        try bench.start()
        /// The bench the steps watch: the last step needs a daemon that has never seen the sensor.
        var watched = bench
        func step(_ name: String, _ action: () throws -> Void) rethrows {
            let start = watched.mark()
            try action()
            seen.append(watched.observe(name, since: start))
        }
        let quiet = useconds_t(driver.quietWait * 1_000_000)

        // 1. Present; nothing read before a claim.
        step("present") { bench.waitForHas(true) }
        // 2. A claim reads the sensor.
        var first: LineProcess!
        try step("claimed") {
            first = try bench.claimant()
            bench.reach(readings[0], timeout: driver.changeTimeout)
        }
        // 3. A change while claimed is published.
        try step("changed while claimed") {
            try bench.change(readings[1].raw)
            bench.reach(readings[1], timeout: driver.changeTimeout)
        }
        // 4. Released: the value is kept and a change is not published; a fresh claim reads it.
        try step("released, changed") {
            try bench.release(first)
            try bench.change(readings[2].raw)
            usleep(quiet)
        }
        var claimant: LineProcess!
        try step("claimed again") {
            claimant = try bench.claimant()
            bench.reach(readings[2], timeout: driver.changeTimeout)
        }
        // 5. The claimant leaving the bus is a release.
        try step("claimant left, changed") {
            claimant.kill()
            usleep(300_000)  // The daemon hears of it from the bus: let that arrive before the change.
            try bench.change(readings[3].raw)
            usleep(quiet)
        }
        try step("claimed after it left") {
            claimant = try bench.claimant()
            bench.reach(readings[3], timeout: driver.changeTimeout)
        }
        // 6. Unplugged and plugged back, claimed throughout.
        try step("unplugged") {
            try bench.unplug()
            bench.waitForHas(false)
        }
        try step("plugged back") {
            try bench.plug(readings[4].raw)
            bench.waitForHas(true)
            // iio-sensor-proxy 3.0 never reads a HID sensor plugged back: three of its reads are enough to show it.
            let neverRead = daemon == .iioSensorProxy && driver.hidSensor != nil
            bench.reach(readings[4], timeout: neverRead ? 2.1 : driver.changeTimeout)
        }
        claimant.kill()
        let log = bench.log

        // 7. A claim made before the sensor exists takes effect when it appears.
        let fresh = try SideBySideBench(driver, daemon)
        try fresh.start()
        watched = fresh
        var early: LineProcess!
        try step("claimed before it exists") { early = try fresh.claimant() }
        try step("appeared") {
            try fresh.plug(readings[5].raw)
            fresh.waitForHas(true)
            fresh.reach(readings[5], timeout: driver.changeTimeout)
        }
        early.kill()
        return (seen, log + "\n--- claimed before it exists:\n" + fresh.log)
    }

    /// What each step should show on `daemon`, from the driver's readings (busctl's `d 50` is published as `50.0`).
    static func expected(_ driver: SideBySideDriver, on daemon: SideBySideDaemon) -> [Expected] {
        let reads = driver.readings.map(\.reads)
        func sent(_ readings: String...) -> [String] { readings.map { String($0.split(separator: " ")[1]) } }
        var steps = [
            Expected(step: "present", present: true, reads: driver.unclaimed, published: []),
            Expected(step: "claimed", present: true, reads: reads[0], published: sent(reads[0])),
            Expected(step: "changed while claimed", present: true, reads: reads[1], published: sent(reads[1])),
            Expected(step: "released, changed", present: true, reads: reads[1], published: []),
            Expected(step: "claimed again", present: true, reads: reads[2], published: sent(reads[2])),
            Expected(step: "claimant left, changed", present: true, reads: reads[2], published: []),
            Expected(step: "claimed after it left", present: true, reads: reads[3], published: sent(reads[3])),
            Expected(step: "unplugged", present: false, reads: reads[3], published: []),
            Expected(step: "plugged back", present: true, reads: reads[4], published: sent(reads[4])),
            Expected(step: "claimed before it exists", present: false, reads: driver.unclaimed, published: []),
            Expected(step: "appeared", present: true, reads: reads[5], published: sent(reads[5])),
        ]
        guard daemon == .iioSensorProxy else { return steps }
        // Where iio-sensor-proxy 3.0 differs. When a claimed sensor appears, it sends the value it had (0 before any
        // reading) with Has* true, before the sensor's own reading.
        steps[8] = Expected(step: "plugged back", present: true, reads: reads[4], published: sent(reads[3], reads[4]))
        steps[10] = Expected(step: "appeared", present: true, reads: reads[5], published: sent(driver.unclaimed, reads[5]))
        // A HID sensor plugged back is never read again: it goes on reading the first device's node.
        if driver.hidSensor != nil {
            steps[8] = Expected(step: "plugged back", present: true, reads: reads[3], published: sent(reads[3]))
        }
        return steps
    }

    /// Checks each step against what it should show.
    static func check(_ seen: [SideBySideObservation], against expected: [Expected], _ driver: SideBySideDriver, _ log: String) {
        #expect(seen.map(\.step) == expected.map(\.step))
        for (observation, wanted) in zip(seen, expected) {
            let fits = observation.property(driver.hasProperty) == (wanted.present ? "b true" : "b false")
                && HIDSensorTests.agree(observation.property(driver.valueProperty) ?? "", wanted.reads)
                && HIDSensorTests.agree(observation.published(driver.valueProperty), wanted.published)
            #expect(fits, "\(wanted.step): wanted \(wanted.present ? "present" : "absent"), \(wanted.reads), published \(wanted.published); saw \(observation)\n\(log)")
        }
    }

    @Test("Present, claimed, changed, released, left by its claimant, unplugged and plugged back, claimed before it exists: the same for both", arguments: SideBySideDriver.allCases)
    func sameLifecycle(driver: SideBySideDriver) throws {
        let ours = try Self.run(driver, on: .orientd)
        let theirs = try Self.run(driver, on: .iioSensorProxy)
        Self.check(ours.seen, against: Self.expected(driver, on: .orientd), driver, ours.log)
        Self.check(theirs.seen, against: Self.expected(driver, on: .iioSensorProxy), driver, theirs.log)
        // Beyond the table, everything a client sees agrees: the other properties, and how the changes are grouped
        // into signals. Where a sensor appears, iio-sensor-proxy sends the value it had first (checked above), so
        // there the two agree on what a client ends up with; but for a HID sensor plugged back, which it never reads.
        for (mine, other) in zip(ours.seen, theirs.seen) {
            switch mine.step {
            case "plugged back" where driver.hidSensor != nil:
                continue
            case "plugged back", "appeared":
                #expect(HIDSensorTests.agree(mine.outcome, other.outcome), "orientd:          \(mine)\niio-sensor-proxy: \(other)")
            default:
                #expect(HIDSensorTests.agree(mine.description, other.description), "orientd:          \(mine)\niio-sensor-proxy: \(other)")
            }
        }
    }
}
