import OrientCore
import OrientSampleSource
import Testing

@testable import OrientDBus

@Suite("When a claim is answered")
struct ClaimAnswersTests {
    static func snapshot(_ light: SensorSnapshot.Sensor) -> SensorSnapshot {
        SensorSnapshot(sensors: [.light: light, .accelerometer: .init(present: true, readSinceStart: true, firstReadings: 3)])
    }

    @Test("At once with no sensor plugged in, or one read since it started; otherwise it waits")
    func atOnce() {
        let answers = ClaimAnswers()
        #expect(answers.answersAtOnce(.light, in: Self.snapshot(.init(present: false))))
        #expect(answers.answersAtOnce(.light, in: Self.snapshot(.init(present: nil))))
        #expect(answers.answersAtOnce(.proximity, in: Self.snapshot(.init(present: true))), "a kind not served")
        #expect(answers.answersAtOnce(.light, in: Self.snapshot(.init(present: true, readSinceStart: true, firstReadings: 1))))
        #expect(!answers.answersAtOnce(.light, in: Self.snapshot(.init(present: true, readSinceStart: false, firstReadings: 1))))
    }

    @Test("A waiting claim: answered at the next first reading, failed when the sensor goes, answered anyway at the bound")
    func outcomes() {
        let answers = ClaimAnswers()
        let idle = Self.snapshot(.init(present: true, readSinceStart: false, firstReadings: 4))
        let waiting = answers.waiting(.light, in: idle, now: 100)
        #expect(waiting.deadline == 100 + answers.bound)
        #expect(answers.outcome(of: waiting, in: idle, now: 101) == nil)
        #expect(answers.outcome(of: waiting, in: Self.snapshot(.init(present: true, readSinceStart: true, firstReadings: 5)), now: 101) == .answer)
        #expect(answers.outcome(of: waiting, in: Self.snapshot(.init(present: false)), now: 101) == .sensorRemoved)
        #expect(answers.outcome(of: waiting, in: idle, now: 100 + answers.bound) == .timedOut)
    }

    @Test("After the last claimant leaves, the last reading answers no claim until the sensor stopped or read again")
    func staleAfterRelease() {
        var answers = ClaimAnswers()
        let running = Self.snapshot(.init(present: true, readSinceStart: true, firstReadings: 2))
        answers.lastClaimGone(.light, in: running)
        answers.take(running)
        #expect(!answers.answersAtOnce(.light, in: running), "still running from before the release")
        answers.take(Self.snapshot(.init(present: true, readSinceStart: false, firstReadings: 2)))
        let restarted = Self.snapshot(.init(present: true, readSinceStart: true, firstReadings: 3))
        answers.take(restarted)
        #expect(answers.answersAtOnce(.light, in: restarted), "stopped, then read again")

        var accelerometer = ClaimAnswers()
        accelerometer.lastClaimGone(.accelerometer, in: running)
        #expect(accelerometer.answersAtOnce(.accelerometer, in: running), "its orientation is followed through every sample")
    }
}
