import OrientCore
import Testing

@Suite("Whether orientd reports a tablet-mode switch")
struct TabletModeSwitchPolicyTests {
    typealias Machine = TabletModeSwitchPolicy.Machine
    typealias Switch = TabletModeSwitchPolicy.Switch

    static let accelerometers = "display and base accelerometers"
    static let vbtn = Switch(name: "Intel Virtual Buttons", node: "/dev/input/event6")
    static let liar = Switch(name: "Intel HID switches", node: "/dev/input/event7", ignoredByLibinput: true)

    struct Case: Sendable, CustomTestStringConvertible {
        var setting: TabletModeSwitchSetting
        var machine: Machine
        var wanted: Bool
        var reason: String
        var testDescription: String { "\(setting), \(machine.postureSource ?? "no posture"), \(machine.switches.count) switches: \(reason)" }
    }

    static let cases: [Case] = [
        Case(setting: .auto, machine: Machine(postureSource: accelerometers, switches: []), wanted: true,
             reason: "display and base accelerometers, and no other tablet-mode switch"),
        Case(setting: .auto, machine: Machine(postureSource: "the kernel's hinge sensor hinge", switches: []), wanted: true,
             reason: "the kernel's hinge sensor hinge, and no other tablet-mode switch"),
        Case(setting: .auto, machine: Machine(postureSource: accelerometers, switches: [vbtn]), wanted: false,
             reason: "the machine has its own: Intel Virtual Buttons (/dev/input/event6)"),
        Case(setting: .auto, machine: Machine(postureSource: accelerometers, switches: [liar]), wanted: true,
             reason: "display and base accelerometers, and no other tablet-mode switch; libinput ignores Intel HID switches (/dev/input/event7)"),
        Case(setting: .auto, machine: Machine(postureSource: accelerometers, switches: [liar, vbtn]), wanted: false,
             reason: "the machine has its own: Intel Virtual Buttons (/dev/input/event6)"),
        Case(setting: .auto, machine: Machine(postureSource: nil, switches: []), wanted: false,
             reason: "no base accelerometer or hinge sensor tells the posture"),
        Case(setting: .auto, machine: Machine(postureSource: nil, switches: [vbtn]), wanted: false,
             reason: "the machine has its own: Intel Virtual Buttons (/dev/input/event6)"),
        Case(setting: .yes, machine: Machine(postureSource: nil, switches: [vbtn]), wanted: true, reason: "tablet-mode-switch = yes"),
        Case(setting: .yes, machine: Machine(postureSource: accelerometers, switches: []), wanted: true, reason: "tablet-mode-switch = yes"),
        Case(setting: .no, machine: Machine(postureSource: accelerometers, switches: []), wanted: false, reason: "tablet-mode-switch = no"),
    ]

    @Test("auto is on where the posture is known and no switch libinput sees exists; yes and no force it", arguments: cases)
    func decides(_ c: Case) {
        let decision = TabletModeSwitchPolicy.decide(c.setting, on: c.machine)
        #expect(decision == TabletModeSwitchDecision(wanted: c.wanted, reason: c.reason))
    }

    @Test("The log line says on or off and why")
    func summary() {
        let off = TabletModeSwitchPolicy.decide(.auto, on: Machine(postureSource: Self.accelerometers, switches: [Self.vbtn]))
        #expect(off.summary == "tablet-mode switch: off (the machine has its own: Intel Virtual Buttons (/dev/input/event6))")
        let on = TabletModeSwitchPolicy.decide(.auto, on: Machine(postureSource: Self.accelerometers, switches: []))
        #expect(on.summary == "tablet-mode switch: on (display and base accelerometers, and no other tablet-mode switch)")
    }
}
