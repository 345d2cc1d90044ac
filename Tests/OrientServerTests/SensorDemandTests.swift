import Foundation
import OrientCore
import OrientServer
import Synchronization
import Testing

/// The channel through which what clients want reaches the sensor services.
@Suite("Sensor demand")
struct SensorDemandTests {
    @Test("A reader hears the level now, then each change; one that stopped reading does not keep the others from theirs")
    func readers() async {
        let demand = SensorDemand()
        demand.setSocketDemand(SocketDemand(subscribers: 1))
        var first = demand.levels().makeAsyncIterator()
        #expect(await first.next()?.subscribers == 1, "the level now")
        let gone = Task { for await _ in demand.levels() {} }
        gone.cancel()
        await gone.value
        demand.setClaims(2, of: .light)
        #expect(await first.next() == SensorDemand.Level(subscribers: 1, claims: [.light: 2]))
    }
}

/// `make test` runs the suites named `…LoadTests` on their own, after the others and without parallelism: this one
/// needs the cooperative pool, which the other suites keep busy (beside them it ran past its minute, slow, not stuck).
@Suite("Sensor demand under load", .serialized)
struct SensorDemandLoadTests {
    // A reading task cancelled while another thread changes the level: the runtime runs the stream's cancellation
    // under the task's lock, and resuming the task from a change needs that lock. When the cancellation took the
    // demand's lock, it deadlocked with a change holding it: this test hung in its first round (4 runs of 4), and the
    // daemon now and then did not stop (ReloadEverySettingTests, after a mount-matrix reload).
    @Test("Readers cancelled while another thread changes the level, 100 times: no deadlock", .timeLimit(.minutes(1)))
    func cancelledWhileChanging() async {
        let demand = SensorDemand()
        // The other thread changes the level from just before each cancellation until the reader has ended, and sleeps
        // between rounds, so that it takes no core while the test's tasks wait for theirs.
        let (go, done) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let changing = Atomic<Bool>(false)
        let stop = Atomic<Bool>(false)
        let changer = Thread {
            while true {
                go.wait()
                if stop.load(ordering: .acquiring) { break }
                var count = 0
                changing.store(true, ordering: .releasing)
                while changing.load(ordering: .acquiring) {
                    demand.setSocketDemand(SocketDemand(subscribers: count % 3))
                    count += 1
                }
                done.signal()
            }
        }
        changer.start()
        for _ in 0..<100 {
            let reader = Task { for await _ in demand.levels() {} }
            await Task.yield()
            go.signal()
            while !changing.load(ordering: .acquiring) {}
            reader.cancel()
            await reader.value
            changing.store(false, ordering: .releasing)
            done.wait()
        }
        stop.store(true, ordering: .releasing)
        go.signal()
    }
}
