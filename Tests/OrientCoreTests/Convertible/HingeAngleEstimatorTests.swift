import Foundation
import OrientCore
import Testing

@Suite("Hinge angle estimator")
struct HingeAngleEstimatorTests {
    let g = 9.80665

    /// Feeds `seconds` of steady readings at 50 Hz for a display attitude and hinge angle; returns the last angle.
    @discardableResult
    func hold(
        _ estimator: inout HingeAngleEstimator, display: Vector3, theta: Double, from t0: Double, seconds: Double = 1,
        extra: Vector3 = .zero
    ) -> Double? {
        var last: Double?
        let base = HingeGeometry.base(fromDisplay: display, hingeAngle: theta)
        for i in 0..<Int(seconds * 50) {
            last = try! estimator.feed(time: t0 + Double(i) / 50, display: display + extra, base: base + extra)
        }
        return last
    }

    @Test("A steady pair reads its angle")
    func steady() {
        var estimator = HingeAngleEstimator()
        let angle = hold(&estimator, display: Vector3(0, -g, 0), theta: 110, from: 0)
        #expect(abs(angle! - 110) < 0.01)
    }

    @Test("With the hinge within 25° of vertical the angle is unknown, and comes back only past 30°")
    func hingeVertical() {
        var estimator = HingeAngleEstimator()
        func display(elevation degrees: Double) -> Vector3 {
            let e = degrees * .pi / 180
            return Vector3(g * cos(e), -g * sin(e), 0)
        }
        #expect(hold(&estimator, display: display(elevation: 40), theta: 250, from: 0) != nil)
        #expect(hold(&estimator, display: display(elevation: 20), theta: 250, from: 1) == nil)
        #expect(hold(&estimator, display: display(elevation: 27), theta: 250, from: 2) == nil, "hysteresis")
        #expect(hold(&estimator, display: display(elevation: 33), theta: 250, from: 3) != nil)
    }

    @Test("Motion makes the angle unknown until the holdoff has passed")
    func motion() throws {
        var estimator = HingeAngleEstimator()
        let display = Vector3(0, -g, 0)
        let base = HingeGeometry.base(fromDisplay: display, hingeAngle: 120)
        hold(&estimator, display: display, theta: 120, from: 0)
        // A jolt of 2 g on the base only.
        #expect(try estimator.feed(time: 1.0, display: display, base: base * 2) == nil)
        #expect(try estimator.feed(time: 1.2, display: display, base: base) == nil, "within the 0.25 s holdoff")
        let after = try estimator.feed(time: 1.3, display: display, base: base)
        #expect(after != nil)
    }

    @Test("Near the wrap, a device last seen closed stays closed and one last seen folded stays folded")
    func continuity() {
        var closing = HingeAngleEstimator()
        let lying = Vector3(0, 0, g)  // screen facing down, as a closed lid on a desk
        hold(&closing, display: lying, theta: 20, from: 0)
        #expect(hold(&closing, display: lying, theta: 357, from: 1) == 0, "358° just past shut reads as shut")

        var folding = HingeAngleEstimator()
        let tablet = Vector3(0, -6, -7.7)
        hold(&folding, display: tablet, theta: 340, from: 0)
        #expect(hold(&folding, display: tablet, theta: 3, from: 1) == 360, "3° just past folded reads as folded")
    }

    @Test("At start near the wrap, a screen facing up is folded and one facing down is shut")
    func startAtTheWrap() {
        var up = HingeAngleEstimator()
        #expect(hold(&up, display: Vector3(0, -3, -9.3), theta: 2, from: 0) == 360)
        var down = HingeAngleEstimator()
        #expect(hold(&down, display: Vector3(0, -3, 9.3), theta: 2, from: 0) == 2)
    }

    @Test("A lid switch reporting shut settles the wrap at 0°")
    func lidSwitch() {
        var estimator = HingeAngleEstimator()
        estimator.lidClosed = true
        #expect(hold(&estimator, display: Vector3(0, -3, -9.3), theta: 358, from: 0) == 0)
    }

    @Test("Samples going back in time are refused and change nothing")
    func timeGoesBack() throws {
        var estimator = HingeAngleEstimator()
        hold(&estimator, display: Vector3(0, -g, 0), theta: 100, from: 0)
        #expect(throws: ClassifierError.self) {
            try estimator.feed(time: 0.5, display: Vector3(0, -g, 0), base: Vector3(0, 0, -g))
        }
        #expect(abs(estimator.angle! - 100) < 0.01)
    }
}
