@testable import OrientDBus
import Testing

@Suite("What each client was given of the properties, to catch a new claimant up")
struct ClientViewsTests {
    @Test("A claimant is told the properties it was given with another value, once; those never given are left out")
    func catchUp() {
        var views = ClientViews()
        views.note(.string("undefined"), of: "AccelerometerOrientation", to: ":1.5")
        views.note(.string("undefined"), of: "AccelerometerTilt", to: ":1.5")
        let current: [String: BusValue] = [
            "HasAccelerometer": .boolean(true), "AccelerometerOrientation": .string("normal"),
            "AccelerometerTilt": .string("undefined"),
        ]
        let names = ["HasAccelerometer", "AccelerometerOrientation", "AccelerometerTilt"]
        #expect(views.catchUp(names, for: ":1.5") { current[$0] } == ["AccelerometerOrientation"])
        #expect(views.catchUp(names, for: ":1.5") { current[$0] }.isEmpty, "told once: it has the value now")
        #expect(views.catchUp(names, for: ":1.6") { current[$0] }.isEmpty, "a client that read nothing")
    }

    @Test("What a signal told it counts as given: back to the value it first read is a change for it")
    func signalled() {
        var views = ClientViews()
        views.note(.double(40), of: "LightLevel", to: ":1.5")
        views.note(.double(55), of: "LightLevel", to: ":1.5")
        #expect(views.catchUp(["LightLevel"], for: ":1.5") { _ in .double(40) } == ["LightLevel"])
    }

    @Test("Only the last clients are remembered, the one given something longest ago forgotten first")
    func bounded() {
        var views = ClientViews()
        for client in 0..<ClientViews.limit { views.note(.boolean(false), of: "HasProximity", to: ":1.\(client)") }
        // The first is given something again: now the second is the oldest.
        views.note(.boolean(false), of: "ProximityNear", to: ":1.0")
        views.note(.boolean(false), of: "HasProximity", to: ":2.0")
        #expect(views.count == ClientViews.limit)
        let now: (String) -> BusValue? = { _ in .boolean(true) }
        #expect(views.catchUp(["HasProximity"], for: ":1.0", current: now) == ["HasProximity"])
        #expect(views.catchUp(["HasProximity"], for: ":1.1", current: now).isEmpty, "forgotten")
        #expect(views.catchUp(["HasProximity"], for: ":2.0", current: now) == ["HasProximity"])
    }
}
