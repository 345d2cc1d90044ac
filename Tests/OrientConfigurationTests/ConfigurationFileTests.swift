import Foundation
import OrientCore
import OrientConfiguration
import Testing

@Suite("Configuration file")
struct ConfigurationFileTests {
    @Test("Every key is read; the file's values replace the defaults")
    func everyKey() throws {
        let text = """
            # orientd configuration
            socket = /tmp/o.sock
            socket-mode = "0660"
            mask = all-but-upside-down
            preferred=landscape-right
            device = iio:device1
            mount-matrix = 0, -1, 0; -1, 0, 0; 0, 0, 1
            mount-repair = false
            rate = 100
            still-rate = 10
            sampling = always
            dbus = on
            control-group = video
            max-clients = 50
            request-timeout = 2.5
            \tstate-directory = /tmp/state#1\r
            rotate-in = always
            tablet-mode-on-angle = 190
            tablet-mode-off-angle = 150.5
            light-threshold = 35%

            [classifier]
            ; semicolons start comments too
            settle-time = 0.06
            hysteresis-gap = 40
            """
        let c = try ConfigurationFile.parse(text, file: "o.conf")
        #expect(c.socketPath == "/tmp/o.sock")
        #expect(c.socketMode == 0o660)
        #expect(c.systemMask == .allButUpsideDown)
        #expect(c.preferred == .landscapeRight)
        #expect(c.device == "iio:device1")
        #expect(c.engine.mountMatrix == MountMatrix(x: Vector3(0, -1, 0), y: Vector3(-1, 0, 0), z: Vector3(0, 0, 1)))
        #expect(c.engine.mountRepair == false)
        #expect(c.rate == 100)
        #expect(c.stillRate == 10)
        #expect(try ConfigurationFile.parse("still-rate = off\n", file: "o.conf").stillRate == nil)
        #expect(try ConfigurationFile.parse("rest-rate = off\n", file: "o.conf").restRate == nil)
        #expect(try ConfigurationFile.parse("rest-rate = 1.5\nstill-rate = 1.2\n", file: "o.conf").restRate == 1.5, "rests at the still rate")
        #expect(c.sampling == .always)
        #expect(c.dbus)
        #expect(c.controlGroup == "video")
        #expect(c.maxClients == 50)
        #expect(c.requestTimeout == 2.5)
        #expect(c.stateDirectory == "/tmp/state#1")  // a # with no space before it is the value's; \\r of a CRLF file dropped
        #expect(c.engine.rotateIn == .always)
        #expect(c.engine.posture.tabletModeOnAngle == 190)
        #expect(c.engine.posture.tabletModeOffAngle == 150.5)
        #expect(try ConfigurationFile.parse("rotate-in = tablet-mode\n", file: "o.conf").engine.rotateIn == .tabletMode)
        for (text, setting) in [("yes", TabletModeSwitchSetting.yes), ("on", .yes), ("auto", .auto), ("no", .no), ("false", .no)] {
            #expect(try ConfigurationFile.parse("tablet-mode-switch = \(text)\n", file: "o.conf").tabletModeSwitch == setting)
        }
        #expect(try ConfigurationFile.parse("", file: "o.conf").tabletModeSwitch == .auto, "auto unless told otherwise")
        #expect(DaemonConfiguration().engine.rotateIn == nil, "unset: the engine decides by the base sensor")
        #expect(c.lightThreshold == 0.35)
        #expect(try ConfigurationFile.parse("light-threshold = 0\n", file: "o.conf").lightThreshold == 0, "0: every change, % optional")
        #expect(try ConfigurationFile.parse("light-threshold = 12.5\n", file: "o.conf").lightThreshold == 0.125)
        #expect(c.engine.classifier.settleTime == 0.06)
        #expect(c.engine.classifier.hysteresisGap == 40)
        #expect(try ConfigurationFile.parse("# nothing but a comment\n", file: "e.conf") == DaemonConfiguration())
        #expect(try ConfigurationFile.parse("", file: "e.conf") == DaemonConfiguration())
    }

    @Test("A # after white space starts a comment, unless quoted; a # inside a word is the value's")
    func trailingComments() throws {
        let c = try ConfigurationFile.parse(
            """
            mask = landscape  # the dock holds it wide
            control-group = video\t# a tab before it
            device = "accel # 3"  # quoted: the # inside is the value's
            state-directory = /srv/state#1 # the first # is the value's
            [classifier]
            settle-time = 0.1 # seconds
            """, file: "c.conf")
        #expect(c.systemMask == .landscape)
        #expect(c.controlGroup == "video")
        #expect(c.device == "accel # 3")
        #expect(c.stateDirectory == "/srv/state#1")
        #expect(c.engine.classifier.settleTime == 0.1)
        #expect {
            try ConfigurationFile.parse("mask = # nothing before the comment\n", file: "c.conf")
        } throws: { "\($0)" == "c.conf:1: mask: expected a value after =" }
    }

    /// The configuration as it acts: a rate left at its default and the same rate set are one (``RateSetting``).
    static func inEffect(_ configuration: DaemonConfiguration) -> DaemonConfiguration {
        var acting = configuration
        acting.stillRate = configuration.stillRate
        acting.restRate = configuration.restRate
        return acting
    }

    @Test("The sample orientd.conf is valid, and each commented-out line is the default or an example marked so")
    func shippedSample() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Systemd/orientd.conf").standardized.path
        let sample = try String(contentsOfFile: path, encoding: .utf8)
        // The installed service serves the desktops' D-Bus interface; a bare `orientd run` does not.
        var shipped = DaemonConfiguration()
        shipped.dbus = true
        #expect(try ConfigurationFile.parse(sample, file: path) == shipped)
        // Each setting's line uncommented alone: the defaults again, unless the line says it is an example.
        let lines = sample.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var examples = 0
        for (index, line) in lines.enumerated() where line.hasPrefix("#") && !line.hasPrefix("# ") && line.contains(" = ") {
            var uncommented = lines
            uncommented[index] = String(line.dropFirst())
            let result = try ConfigurationFile.parse(uncommented.joined(separator: "\n"), file: path)
            let example = line.contains("# an example")
            if example { examples += 1 }
            #expect(example == (Self.inEffect(result) != Self.inEffect(shipped)), "line \(index + 1): \(line)")
        }
        #expect(examples == 5, "preferred, device, mount-matrix, control-group and rotate-in have no default to show")
    }

    @Test("Errors name the file, the line and the key", arguments: [
        ("mask = all\nmaks = portrait\n", "bad.conf:2: maks: unknown key"),
        ("rate = fast\n", "bad.conf:1: rate: \"fast\" is not a number"),
        ("rate =\n", "bad.conf:1: rate: expected a value"),
        ("mask = sideways\n", "bad.conf:1: mask: unknown orientation mask"),
        ("[classifier]\nsettle = 1\n", "bad.conf:2: classifier.settle: unknown setting"),
        ("[classifier]\nsettle-time = -1\n", "bad.conf:2: classifier.settle-time:"),
        ("[filter]\nsettle-time = 1\n", "bad.conf:2: unknown section [filter]"),
        ("sampling = sometimes\n", "bad.conf:1: sampling: expected on-demand or always"),
        ("mount-repair = maybe\n", "bad.conf:1: mount-repair: expected yes or no, got \"maybe\""),
        ("mount-matrix = 1, 0, 0; 0, 1, 0\n", "bad.conf:1: mount-matrix: bad mount matrix"),
        ("mask = portrait\npreferred = landscape-left\n", "bad.conf:2: preferred: landscape-left is not allowed by the mask portrait"),
        ("# ok\n[classifier\n", "bad.conf:2: expected a section header"),
        ("[]\n", "bad.conf:1: expected a section header"),
        ("[a b]\n", "bad.conf:1: \"a b\" is not a section name"),
        ("mask: all\n", "bad.conf:1: expected key = value"),
        (" = all\n", "bad.conf:1: a key is missing before ="),
        ("rate = 10\n\nrate = 20\n", "bad.conf:3: rate is already set at line 1"),
        ("mask all = x\n", "bad.conf:1: \"mask all\" is not a key name"),
        ("request-timeout = 0\n", "bad.conf:1: request-timeout: expected seconds, more than 0"),
        ("still-rate = 0.5\n", "bad.conf:1: still-rate: 0.5 must be at most rate (50.0) and faster than one sample per max-sample-gap"),
        ("rate = 2\nstill-rate = 5\n", "bad.conf:2: still-rate: 5.0 must be at most rate (2.0)"),
        ("still-rate = never\n", "bad.conf:1: still-rate: \"never\" is not a number"),
        ("rest-rate = 0.8\n", "bad.conf:1: rest-rate: 0.8 must be faster than one sample per max-sample-gap"),
        ("rotate-in = sometimes\n", "bad.conf:1: rotate-in: expected always or tablet-mode, got \"sometimes\""),
        ("rotate-in = tabletmode\n", "bad.conf:1: rotate-in: expected always or tablet-mode"),
        ("tablet-mode-on-angle = wide\n", "bad.conf:1: tablet-mode-on-angle: \"wide\" is not a number"),
        ("# x\ntablet-mode-on-angle = 400\n", "bad.conf:2: tablet-mode-on-angle: 400.0 is outside 90.0...350.0"),
        ("tablet-mode-off-angle = 5\n", "bad.conf:1: tablet-mode-off-angle: 5.0 is outside 10.0...340.0"),
        ("light-threshold = bright\n", "bad.conf:1: light-threshold: expected a percentage from 0 to 1000%, such as 20%, got \"bright\""),
        ("light-threshold = -5%\n", "bad.conf:1: light-threshold: expected a percentage from 0 to 1000%"),
        ("light-threshold = 0.2 %\n", "bad.conf:1: light-threshold: expected a percentage"),
        ("tablet-mode-switch = maybe\n", "bad.conf:1: tablet-mode-switch: expected auto, yes or no, got \"maybe\""),
        // A key of the other part of the file is pointed to where it belongs.
        ("settle-time = 0.1\n",
         "bad.conf:1: settle-time: settle-time is a [classifier] setting, not a top-level one: move it under [classifier]"),
        ("[classifier]\nsettle-time = 0.1\ntablet-mode-switch = yes\n",
         "bad.conf:3: classifier.tablet-mode-switch: tablet-mode-switch is a top-level key, not a [classifier] one: "
            + "move it before the first [section] header"),
        // A trailing comment is a comment, so what is left before it is the value checked.
        ("mask = sideways  # a comment\n", "bad.conf:1: mask: unknown orientation mask \"sideways\" in \"sideways\""),
        ("tablet-mode-on-angle = 200\ntablet-mode-off-angle = 200\n",
         "bad.conf:2: tablet-mode-off-angle: must be below tablet-mode-on-angle (200.0)"),
        ("tablet-mode-on-angle = 150\n", "bad.conf: tablet-mode-off-angle: must be below tablet-mode-on-angle (150.0)"),
        // A check of values together names the line of the key it names, wherever that is.
        ("still-rate = 5\nrate = 2\n", "bad.conf:1: still-rate:"),
        ("rest-rate = 2\n[classifier]\nmax-sample-gap = 0.3\n", "bad.conf:1: rest-rate: 2.0 must be faster than one sample per max-sample-gap (0.3 s)"),
    ])
    func errors(text: String, message: String) {
        #expect {
            try ConfigurationFile.parse(text, file: "bad.conf")
        } throws: { error in
            "\(error)".hasPrefix(message)
        }
    }

    @Test("A default rate that the settings set leave no room for gives way, and says so; the same rate set is an error")
    func defaultsGiveWay() throws {
        // Valid before the rest rate was added: 0.2 s between still samples fits a 0.3 s gap, 0.5 s at rest does not.
        let gap = try ConfigurationFile.parse("[classifier]\nmax-sample-gap = 0.3\n", file: "o.conf")
        #expect(gap.stillRate == 5)
        #expect(gap.restRate == nil, "it rests at the still rate")
        let restRate = try #require(DaemonSetting.all.first { $0.key == "rest-rate" })
        #expect(restRate.show(gap) == "off (the default 2.0 Hz is slower than classifier.max-sample-gap allows)")
        #expect(restRate.show(DaemonConfiguration()) == "2.0 Hz (once still for 10 s)")
        // A rate below the default still rate: read at that rate, still or not.
        let slow = try ConfigurationFile.parse("rate = 2\n", file: "o.conf")
        #expect(slow.stillRate == nil)
        let stillRate = try #require(DaemonSetting.all.first { $0.key == "still-rate" })
        #expect(stillRate.show(slow) == "off (the default 5.0 Hz does not fit rate or classifier.max-sample-gap)")
        #expect(stillRate.show(try ConfigurationFile.parse("still-rate = off\n", file: "o.conf")) == "off")
    }
}
