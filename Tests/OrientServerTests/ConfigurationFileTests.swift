import OrientCore
import OrientServer
import Testing

@Suite("Configuration file")
struct ConfigurationFileTests {
    @Test("Every key is read; the file's values replace the defaults")
    func everyKey() throws {
        let text = """
            # orientd configuration
            socket: /tmp/o.sock
            socket-mode: "0660"
            mask: all-but-upside-down
            preferred: landscape-right
            device: iio:device1
            mount-matrix: "0, -1, 0; -1, 0, 0; 0, 0, 1"
            mount-repair: false
            rate: 100
            sampling: always
            control-group: video
            max-clients: 50
            state-directory: /tmp/state
            classifier:
              settle-time: 0.06
              hysteresis-gap: 40
            """
        let c = try ConfigurationFile.parse(text, file: "o.conf")
        #expect(c.socketPath == "/tmp/o.sock")
        #expect(c.socketMode == 0o660)
        #expect(c.systemMask == .allButUpsideDown)
        #expect(c.preferred == .landscapeRight)
        #expect(c.device == "iio:device1")
        #expect(c.mountMatrix == MountMatrix(x: Vector3(0, -1, 0), y: Vector3(-1, 0, 0), z: Vector3(0, 0, 1)))
        #expect(c.mountRepair == false)
        #expect(c.rate == 100)
        #expect(c.sampling == .always)
        #expect(c.controlGroup == "video")
        #expect(c.maxClients == 50)
        #expect(c.stateDirectory == "/tmp/state")
        #expect(c.classifier.settleTime == 0.06)
        #expect(c.classifier.hysteresisGap == 40)
        #expect(try ConfigurationFile.parse("# nothing but a comment\n", file: "e.conf") == DaemonConfiguration())
    }

    @Test("Errors name the file, the line and the key", arguments: [
        ("mask: all\nmaks: portrait\n", "bad.conf:2: maks: unknown key"),
        ("rate: fast\n", "bad.conf:1: rate: \"fast\" is not a number"),
        ("mask: sideways\n", "bad.conf:1: mask: unknown orientation mask"),
        ("classifier:\n  settle: 1\n", "bad.conf:2: classifier.settle: unknown setting"),
        ("classifier:\n  settle-time: -1\n", "bad.conf: classifier.settle-time:"),
        ("sampling: sometimes\n", "bad.conf:1: sampling: expected on-demand or always"),
        ("mount-repair: maybe\n", "bad.conf:1: mount-repair: expected true or false"),
        ("mount-matrix: \"1, 0, 0; 0, 1, 0\"\n", "bad.conf:1: mount-matrix: bad mount matrix"),
        ("mask: portrait\npreferred: landscape-left\n", "bad.conf: preferred: landscape-left is not allowed by the mask portrait"),
        ("mask: [all\n", "bad.conf:"),
        ("- a\n- b\n", "bad.conf:1: expected key: value lines"),
    ])
    func errors(text: String, message: String) {
        #expect {
            try ConfigurationFile.parse(text, file: "bad.conf")
        } throws: { error in
            "\(error)".hasPrefix(message)
        }
    }
}
