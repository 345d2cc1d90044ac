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
        demand.setSubscribers(1)
        var first = demand.levels().makeAsyncIterator()
        #expect(await first.next()?.subscribers == 1, "the level now")
        let gone = Task { for await _ in demand.levels() {} }
        gone.cancel()
        await gone.value
        demand.setClaims(2, of: .light)
        #expect(await first.next() == SensorDemand.Level(subscribers: 1, claims: [.light: 2]))
    }

    // A reading task cancelled while another thread changes the level: the runtime runs the stream's cancellation
    // under the task's lock, and resuming the task from a change needs that lock. When the cancellation took the
    // demand's lock, it deadlocked with a change holding it: this test hung within a few hundred rounds, and the daemon now and
    // then did not stop (ReloadEverySettingTests, after a mount-matrix reload, with the threads' states logged).
    @Test("Readers cancelled while the level changes from another thread, 2000 times: no deadlock", .timeLimit(.minutes(1)))
    func cancelledWhileChanging() async {
        let demand = SensorDemand()
        // The other thread changes the level only while a reader is being cancelled, so that the test stays quick on a
        // busy machine (changing it all the time floods the reader, and took minutes beside the full suite).
        let changing = Atomic<Bool>(false)
        let stop = Atomic<Bool>(false)
        let changer = Thread {
            var count = 0
            while !stop.load(ordering: .relaxed) {
                guard changing.load(ordering: .acquiring) else { sched_yield(); continue }
                demand.setSubscribers(count % 3)
                count += 1
            }
        }
        changer.start()
        for _ in 0..<2000 {
            let reader = Task { for await _ in demand.levels() {} }
            await Task.yield()
            changing.store(true, ordering: .releasing)
            reader.cancel()
            await reader.value
            changing.store(false, ordering: .releasing)
        }
        stop.store(true, ordering: .relaxed)
    }
}
