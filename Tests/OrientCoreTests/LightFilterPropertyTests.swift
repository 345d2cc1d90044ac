import OrientCore
import PropertyBased
import Testing

/// Invariants of the light filter over random sensors: rooms that wander, drift, dim for a moment and switch off, read
/// at random intervals, opened again now and then, with the threshold changed while it reads. Whatever they give, a
/// level published is a value read, and a read asked for sooner is neither in the past nor later than a hold.
@Suite("Light filter invariants")
struct LightFilterPropertyTests {
    /// How the room changes from one reading to the next: mostly noise, then a drift's step, a shadow's depth or its
    /// end, lights switched off or on, and the dark.
    static let changes = Gen.element(of: [1, 1, 1, 1.02, 0.98, 1.05, 0.95, 1.01, 0.99, 0.7, 1.4, 0.3, 3, 0.02, 50, 0]).map { $0! }
    /// Seconds from one reading to the next: a buffered sensor's, the 0.8 s poll, a stall.
    static let gaps = Gen.element(of: [0.001, 0.1, 0.15, 0.4, 0.8, 0.8, 0.8, 1.6, 9]).map { $0! }
    /// What happens before a reading, now and then: nothing, the sensor opened again, or a new threshold.
    static let events = Gen.int(in: 0...40)
    static let thresholds = Gen.element(of: [0, 0.05, 0.1, 0.2, 0.2, 0.5]).map { $0! }

    @Test("Every level published is one read since the sensor was opened, a first reading is published at once (a doubted 0 once read again), a read asked for comes after now and within a shadow's hold, and a room that then holds still is published within 8 s")
    func publishesValuesRead() async {
        await propertyCheck(
            count: 400, input: Self.changes.array(of: 200), Self.gaps.array(of: 200), Self.events.array(of: 200),
            Self.thresholds, Gen.bool
        ) { changes, gaps, events, threshold, wholeLux in
            var filter = LightFilter(threshold: threshold)
            var (room, time) = (200.0, 0.0)
            var readSinceOpened: Set<Double> = []
            var firstAfterOpen = true
            for index in changes.indices {
                time += gaps[index]
                switch events[index] {
                case 0:
                    filter.reset()
                    readSinceOpened = []
                    firstAfterOpen = true
                case 1:
                    filter.threshold = threshold == 0.2 ? 0.1 : 0.2
                default:
                    break
                }
                // The dark stays dark until lights are switched on again.
                room = room == 0 ? (changes[index] == 50 ? 50 : 0) : min(room * changes[index], 100_000)
                let level = wholeLux ? room.rounded() : room
                readSinceOpened.insert(level)
                let decision = filter.take(level, at: time)
                if let published = decision.publish {
                    #expect(readSinceOpened.contains(published), "\(published) at \(time) was not read")
                }
                if let again = decision.readAgainAt {
                    #expect(again > time && again <= time + LightFilter.shadowHold + 0.01, "read again at \(again), now \(time)")
                }
                if firstAfterOpen {
                    #expect(decision.publish == level || decision.doubtedZero, "first reading \(level) after an open")
                    firstAfterOpen = decision.doubtedZero
                }
            }
            // Then the room holds still, to the lux: within 8 s its level is the one published, whatever came before.
            let still = wholeLux ? room.rounded() : room
            for _ in 0..<10 {
                time += 0.8
                _ = filter.take(still, at: time)
            }
            #expect(filter.published == still, "the room holds still at \(still)")
        }
    }

    @Test("A threshold of 0 publishes every change as it is read, and nothing else")
    func thresholdZero() async {
        await propertyCheck(count: 200, input: Self.changes.array(of: 100), Self.gaps.array(of: 100)) { changes, gaps in
            var filter = LightFilter(threshold: 0)
            var (room, time, last): (Double, Double, Double?) = (200, 0, nil)
            for index in changes.indices {
                time += gaps[index]
                room = room == 0 ? (changes[index] == 50 ? 50 : 0) : min(room * changes[index], 100_000)
                let level = room.rounded()
                let decision = filter.take(level, at: time)
                #expect(decision.publish == (level == last ? nil : level))
                last = level
            }
        }
    }
}
