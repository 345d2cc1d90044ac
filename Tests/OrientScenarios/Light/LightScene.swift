import Foundation

/// One room of issue 39's family, drawn from a seed: its level, the sensor's noise and update period, flicker, then a
/// steady part with a typing hand's shadows, 5 s without new ones, a ramp, and six steps. The same family as
/// `Benchmarks/Scripts/light-scenes.py` draws for the real daemons.
public struct LightScene: CustomStringConvertible, Sendable {
    public struct Step: Sendable {
        public var start: Double
        public var level: Double
        public var ratio: Double
    }

    public static let steadyLength = 60.0
    /// A typing hand's shadow lasts up to this long: one that starts as the steady part ends is over this much later.
    public static let longestShadow = 2.5
    public static let stepLength = 5.0

    public let seed: Int
    public let room: Double
    public let noise: Double
    public let updatePeriod: Double
    public let flicker: Double
    public let flickerPeriod: Double
    public let rampFactor: Double
    public private(set) var steps: [Step] = []
    private var random: SeededRandom

    public var steadyPart: Range<Double> { 3..<Self.steadyLength }
    /// When the last shadow is over, whenever it started.
    public var shadowsOver: Double { Self.steadyLength + Self.longestShadow }
    /// After 5 s without new shadows, as `light-scenes.py` holds the room: a shadow published as the steady part ends
    /// is not a ramp followed badly.
    public var rampPart: Range<Double> { (Self.steadyLength + 5)..<(Self.steadyLength + 35) }
    public var end: Double { (steps.last?.start ?? 0) + Self.stepLength }

    /// A room drawn from `seed`.
    public init(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed))
        let room = exp(random.uniform(log(20)...log(800)))
        let noise = random.uniform(0.01...0.05)
        let updatePeriod = random.uniform(0.1...1)
        let flicker = random.uniform(0...0.04)
        let flickerPeriod = random.uniform(2...10)
        let rampFactor: Double = random.uniform(0...1) < 0.5 ? 2 : 0.5
        self.init(seed: seed, room: room, noise: noise, updatePeriod: updatePeriod, flicker: flicker,
                  flickerPeriod: flickerPeriod, rampFactor: rampFactor, random: random)
    }

    /// A given room, its shadows, noise and steps drawn from `draw`: one room read many times over.
    public init(room: Double, noise: Double, updatePeriod: Double, flicker: Double, flickerPeriod: Double,
                rampFactor: Double, draw: Int) {
        self.init(seed: draw, room: room, noise: noise, updatePeriod: updatePeriod, flicker: flicker,
                  flickerPeriod: flickerPeriod, rampFactor: rampFactor,
                  random: SeededRandom(seed: UInt64(draw) &* 7919 &+ 13))
    }

    private init(seed: Int, room: Double, noise: Double, updatePeriod: Double, flicker: Double, flickerPeriod: Double,
                 rampFactor: Double, random: SeededRandom) {
        var random = random
        self.seed = seed
        self.room = room
        self.noise = noise
        self.updatePeriod = updatePeriod
        self.flicker = flicker
        self.flickerPeriod = flickerPeriod
        self.rampFactor = rampFactor
        var level = room * rampFactor
        for index in 0..<6 {
            let factor = exp(random.uniform(log(1.5)...log(50)))
            let target = min(max(random.uniform(0...1) < 0.5 ? level * factor : level / factor, 2), 20000)
            steps.append(Step(start: Self.steadyLength + 37 + Double(index) * Self.stepLength, level: target,
                              ratio: max(target, level) / min(target, level)))
            level = target
        }
        self.random = random
    }

    /// The room's true level at `time`, without shadows, flicker or noise.
    public func level(at time: Double) -> Double {
        if time < rampPart.lowerBound { return room }
        if time < rampPart.upperBound { return room * pow(rampFactor, (time - rampPart.lowerBound) / 30) }
        return steps.last { $0.start <= time }?.level ?? room * rampFactor
    }

    /// What the sensor holds from each update on: the room, shadowed while steady, with flicker and noise, in whole lux.
    public mutating func sensorValues() -> [(time: Double, level: Double)] {
        var values: [(time: Double, level: Double)] = []
        var (nextShadow, shadowUntil, shade) = (random.uniform(1...6), 0.0, 1.0)
        var time = 0.0
        while time < end {
            if time < Self.steadyLength, time >= nextShadow {
                shadowUntil = time + random.uniform(0.2...Self.longestShadow)
                shade = random.uniform(0.5...0.9)
                nextShadow = shadowUntil + random.uniform(1...6)
            }
            let beat = 1 + flicker * sin(2 * .pi * time / flickerPeriod)
            let lux = level(at: time) * (time < shadowUntil ? shade : 1) * beat * (1 + random.gaussian(sigma: noise))
            values.append((time, max(0, lux.rounded())))
            time += updatePeriod
        }
        return values
    }

    public var description: String {
        "seed \(seed) (\(Int(room)) lux, noise \(Int(noise * 100)) %, updates every \(String(format: "%.2f", updatePeriod)) s)"
    }
}
