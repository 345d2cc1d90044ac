import Testing

@testable import OrientFollow

@Suite("Hyprland: keyword or eval, from what its status reports")
struct HyprlandConfigProviderTests {
    @Test(
        "configProvider decides; Hyprland before 0.55 has no status request and no Lua",
        arguments: [
            // Hyprland 0.55 and later, as SystemInfo.cpp prints it for j/status (leading and trailing newlines).
            ("\n{\n    \"configProvider\": \"lua\",\n    \"backend\": \"drm\"\n}\n", HyprlandConfigProvider.lua),
            ("\n{\n    \"configProvider\": \"hyprlang\",\n    \"backend\": \"drm\"\n}\n", .hyprlang),
            // Up to 0.54: the answer to any request it does not have.
            ("unknown request", .hyprlang),
            // A report without the field.
            (#"{"backend": "wayland"}"#, .hyprlang),
        ])
    func provider(reply: String, expected: HyprlandConfigProvider) throws {
        #expect(try HyprlandConfigProvider.fromStatus(reply) == expected)
    }

    @Test("An unknown provider, or a reply that is not a status, is an error that quotes it")
    func unexpected() {
        let unknown = #expect(throws: FollowError.self) {
            try HyprlandConfigProvider.fromStatus(#"{"configProvider": "toml", "backend": "drm"}"#)
        }
        #expect(unknown?.description.contains(#"configProvider "toml""#) == true, "\(unknown?.description ?? "")")
        let garbled = #expect(throws: FollowError.self) { try HyprlandConfigProvider.fromStatus("permission denied") }
        #expect(garbled?.description.contains("j/status: permission denied") == true, "\(garbled?.description ?? "")")
    }
}
