import Testing

@testable import OrientFollow

@Suite("Each compositor's requests")
struct CompositorRequestTests {
    @Test("sway turns clockwise: 360 − rotation", arguments: [(0, "normal"), (90, "270"), (180, "180"), (270, "90")])
    func swayTransform(rotation: Int, expected: String) {
        #expect(SwayMessage.transform(rotation: rotation) == expected)
    }

    @Test(
        "Hyprland numbers the turns 0-3 counter-clockwise; niri names them counter-clockwise",
        arguments: [
            (0, 0, "Normal"), (90, 1, "90"), (180, 2, "180"), (270, 3, "270"),
        ])
    func otherTransforms(rotation: Int, hyprland: Int, niri: String) {
        #expect(HyprlandRequest.transform(rotation: rotation) == hyprland)
        #expect(NiriRequest.transform(rotation: rotation) == niri)
    }

    @Test("sway's commands, with names quoted")
    func swayCommands() {
        #expect(
            SwayMessage.commands(for: .transform(rotation: 90), output: "eDP-1") == [#"output "eDP-1" transform 270"#])
        #expect(
            SwayMessage.commands(for: .mapTouch(rotation: 90), output: "eDP-1") == [
                #"input type:touch map_to_output "eDP-1""#
            ])
        #expect(
            SwayMessage.commands(for: .mapPen(rotation: 0), output: "eDP-1") == [
                #"input type:tablet_tool map_to_output "eDP-1""#
            ])
        #expect(
            SwayMessage.commands(
                for: .inputs(["1:1:AT_Translated_Set_2_keyboard", #"odd "name""#], enabled: false), output: "x") == [
                    #"input "1:1:AT_Translated_Set_2_keyboard" events disabled"#,
                    #"input "odd \"name\"" events disabled"#,
                ])
    }

    @Test("i3-ipc framing: magic, length and type in native byte order, then the payload")
    func swayFraming() throws {
        let bytes = SwayMessage.encode(type: 0, payload: "output \"eDP-1\" transform 90")
        #expect(Array(bytes[0..<6]) == Array("i3-ipc".utf8))
        #expect(Array(bytes[6..<10]) == [27, 0, 0, 0])
        #expect(Array(bytes[10..<14]) == [0, 0, 0, 0])
        #expect(String(decoding: bytes[14...], as: UTF8.self) == "output \"eDP-1\" transform 90")
        #expect(SwayMessage.encode(type: 3, payload: "") == Array("i3-ipc".utf8) + [0, 0, 0, 0, 3, 0, 0, 0])
        let header = try SwayMessage.decodeHeader(Array("i3-ipc".utf8) + [0x10, 0x01, 0, 0, 3, 0, 0, 0])
        #expect(header.length == 272 && header.type == 3)
        #expect(throws: FollowError.self) {
            try SwayMessage.decodeHeader(Array("i3-ipX".utf8) + [0, 0, 0, 0, 0, 0, 0, 0])
        }
    }

    static let monitor = HyprlandRequest.Monitor(
        name: "eDP-1", width: 2880, height: 1800, refreshRate: 90.001, x: 0, y: 0, scale: 1.5)

    @Test("Hyprland with Lua: eval of hl.monitor keeping the mode, place and scale; touch and pen turned alike")
    func hyprlandEvals() throws {
        let requests = { (action: FollowAction) throws(FollowError) in
            try HyprlandRequest.requests(for: action, monitor: Self.monitor, provider: .lua)
        }
        #expect(
            try requests(.transform(rotation: 90)) == [
                #"/eval hl.monitor({ output = "eDP-1", mode = "2880x1800@90.001", position = "0x0", "#
                    + "scale = 1.5, transform = 1 })"
            ])
        #expect(
            try requests(.mapTouch(rotation: 270)) == [
                #"/eval hl.config({ input = { touchdevice = { transform = 3, output = "eDP-1" } } })"#
            ])
        #expect(
            try requests(.mapPen(rotation: 180)) == [
                #"/eval hl.config({ input = { tablet = { transform = 2, output = "eDP-1" } } })"#
            ])
        #expect(
            try requests(.inputs(["at-translated-set-2-keyboard"], enabled: false)) == [
                #"/eval hl.device({ name = "at-translated-set-2-keyboard", enabled = false })"#
            ])
    }

    @Test("Hyprland with hyprlang: keyword requests for the same monitor rule, touch, tablet and device settings")
    func hyprlandKeywords() throws {
        let requests = { (action: FollowAction) throws(FollowError) in
            try HyprlandRequest.requests(for: action, monitor: Self.monitor, provider: .hyprlang)
        }
        #expect(
            try requests(.transform(rotation: 90)) == ["/keyword monitor eDP-1,2880x1800@90.001,0x0,1.5,transform,1"])
        #expect(
            try requests(.mapTouch(rotation: 270)) == [
                "/keyword input:touchdevice:transform 3", "/keyword input:touchdevice:output eDP-1",
            ])
        #expect(
            try requests(.mapPen(rotation: 180)) == [
                "/keyword input:tablet:transform 2", "/keyword input:tablet:output eDP-1",
            ])
        #expect(
            try requests(.inputs(["at-translated-set-2-keyboard", "elan-touchpad"], enabled: true)) == [
                "/keyword device[at-translated-set-2-keyboard]:enabled true",
                "/keyword device[elan-touchpad]:enabled true",
            ])
        let refused = #expect(throws: FollowError.self) { try requests(.inputs(["AT keyboard"], enabled: false)) }
        #expect(refused?.description.contains(#"Hyprland device "AT keyboard""#) == true)
        #expect(throws: FollowError.self) { try requests(.inputs(["odd]name"], enabled: false)) }
    }

    @Test("niri: serde's spelling of Request::Output; touch and pen need no request; devices cannot be turned off")
    func niriRequests() throws {
        #expect(
            try NiriRequest.requests(for: .transform(rotation: 90), output: "eDP-1") == [
                #"{"Output":{"output":"eDP-1","action":{"Transform":{"transform":"90"}}}}"#
            ])
        #expect(
            try NiriRequest.requests(for: .transform(rotation: 0), output: "eDP-1") == [
                #"{"Output":{"output":"eDP-1","action":{"Transform":{"transform":"Normal"}}}}"#
            ])
        #expect(try NiriRequest.requests(for: .mapTouch(rotation: 90), output: "eDP-1").isEmpty)
        #expect(throws: FollowError.self) {
            try NiriRequest.requests(for: .inputs(["kbd"], enabled: false), output: "eDP-1")
        }
    }

    @Test("Sockets: the session's first, then the newest of the same kind in the runtime directory")
    func sockets() {
        #expect(
            CompositorSocket.candidates(
                for: .hyprland,
                environment: [
                    "XDG_RUNTIME_DIR": "/nonexistent", "HYPRLAND_INSTANCE_SIGNATURE": "sig",
                ]) == ["/nonexistent/hypr/sig/.socket.sock"])
        #expect(
            CompositorSocket.candidates(for: .niri, environment: ["NIRI_SOCKET": "/x/niri.sock"]) == ["/x/niri.sock"])
        #expect(CompositorSocket.candidates(for: .sway, environment: [:]).isEmpty)
    }
}
