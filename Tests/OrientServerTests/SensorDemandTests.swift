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
    // demand's lock, it deadlocked with a change holding it: this test hung within 200 rounds, and the daemon now and
    // then did not stop (ReloadEverySettingTests, after a mount-matrix reload, with the threads' states logged).
    @Test("Readers cancelled while the level changes from another thread, 5000 times: no deadlock", .timeLimit(.minutes(1)))
    func cancelledWhileChanging() async {
        let demand = SensorDemand()
        let stop = Atomic<Bool>(false)
        let changer = Thread {
            var count = 0
            while !stop.load(ordering: .relaxed) {
                demand.setSubscribers(count % 3)
                count += 1
            }
        }
        changer.start()
        for _ in 0..<5000 {
            let reader = Task { for await _ in demand.levels() {} }
            await Task.yield()
            reader.cancel()
            await reader.value
        }
        stop.store(true, ordering: .relaxed)
    }
}
