import OrientCore
import Testing

/// The frequency a found sensor is left at, as iio-sensor-proxy 3.9 chooses it.
@Suite("Sampling frequency when a sensor is found")
struct SamplingFrequencyChoiceTests {
    @Test("10 Hz or more is left alone", arguments: [10.0, 12.5, 100])
    func leftAlone(current: Double) {
        #expect(SamplingFrequencyChoice.choose(current: current, available: "1 2 3") == nil)
    }

    @Test("Slower: the smallest listed at 10 Hz or more, in either order, integers or decimals", arguments: [
        ("3 6 12 25 50 100 200 400 800 1600", 12.0),
        ("800.000000 400.000000 200.000000 100.000000 50.000000 12.500000 6.250000 1.560000", 12.5),
        ("0 10 20", 10),
    ])
    func smallestAtLeastTen(available: String, chosen: Double) {
        #expect(SamplingFrequencyChoice.choose(current: 5.2, available: available)?.frequency == chosen)
    }

    @Test("None listed at 10 Hz or more: the largest listed; none listed at all: 10 Hz")
    func otherwise() {
        #expect(SamplingFrequencyChoice.choose(current: 1, available: "1.5 6.25 3")?.frequency == 6.25)
        #expect(SamplingFrequencyChoice.choose(current: 1, available: nil)?.frequency == 10)
        #expect(SamplingFrequencyChoice.choose(current: 1, available: "")?.frequency == 10)
    }

    @Test("A word that is not a number ends the list, and is named")
    func unreadable() {
        let choice = SamplingFrequencyChoice.choose(current: 5, available: "6 12 fast 25")
        #expect(choice?.frequency == 12 && choice?.unreadable == "fast")
        #expect(SamplingFrequencyChoice.choose(current: 5, available: "Hz 12")?.frequency == 10, "nothing before it")
    }

    @Test("A rate asked for is the nearest the driver lists at or above it, else its fastest; with no list, itself",
        arguments: [
            // kxcjk-1013's list: the still rate of 5 Hz becomes 6.25, the rest rate of 2 Hz 3.125.
            (5.0, "0.781000 1.563000 3.125000 6.250000 12.500000 25 50 100 200 400 800 1600", 6.25),
            (2.0, "0.781000 1.563000 3.125000 6.250000 12.500000 25 50 100 200 400 800 1600", 3.125),
            (50.0, "0.781000 1.563000 3.125000 6.250000 12.500000 25 50 100 200 400 800 1600", 50),
            (5.0, "15.620000 31.260000 62.50000 125 250 500 1000 2000", 15.62),
            (3000.0, "15.620000 31.260000 62.50000 125 250 500 1000 2000", 2000),
            (5.0, nil, 5),
        ] as [(Double, String?, Double)])
    func frequencyForARate(requested: Double, available: String?, written: Double) {
        #expect(SamplingFrequencyChoice.frequency(for: requested, available: available) == written)
    }

    @Test("Written in the shortest form that reads back", arguments: [(10.0, "10"), (12.5, "12.5"), (6.25, "6.25"), (1600, "1600")])
    func text(value: Double, written: String) {
        #expect(SamplingFrequencyChoice.text(value) == written)
    }
}
