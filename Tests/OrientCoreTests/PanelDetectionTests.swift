import OrientCore

import Testing

@Suite("Finding the internal panel")
struct PanelDetectionTests {
    private let hdmi = PanelConnector(name: "card0-HDMI-A-1", status: "connected\n", modes: "3840x2160\n1920x1080\n")

    @Test("A connected eDP panel wider than tall is landscape; a taller DSI one portrait; external outputs do not count")
    func shapes() {
        let laptop = PanelDetection.detect(
            connectors: [hdmi, PanelConnector(name: "card0-eDP-1", status: "connected\n", modes: "1920x1080\n1280x720\n")],
            kernelCommandLine: nil)
        #expect(laptop.natural == .landscape)
        #expect(laptop.source == .panel(connector: "eDP-1", width: 1920, height: 1080, mounting: nil))
        #expect(laptop.description == "landscape (panel eDP-1, 1920x1080)")
        let tablet = PanelDetection.detect(
            connectors: [PanelConnector(name: "card1-DSI-1", status: "connected\n", modes: "800x1280\n")], kernelCommandLine: nil)
        #expect(tablet.natural == .portrait)
        let lvds = PanelDetection.detect(
            connectors: [PanelConnector(name: "card0-LVDS-1", status: "connected", modes: "1366x768")], kernelCommandLine: nil)
        #expect(lvds.natural == .landscape)
    }

    @Test("No internal panel, or one not connected: portrait, said to be assumed, with why")
    func assumed() {
        let none = PanelDetection.detect(connectors: [hdmi], kernelCommandLine: nil)
        #expect(none.natural == .portrait)
        #expect(none.description == "portrait (assumed: no internal panel (eDP, LVDS or DSI connector) found)")
        let off = PanelDetection.detect(
            connectors: [PanelConnector(name: "card0-eDP-1", status: "disconnected\n", modes: "")], kernelCommandLine: nil)
        #expect(off.natural == .portrait)
        #expect(off.description.contains("assumed: the internal connector card0-eDP-1 has no connected panel"))
    }

    @Test("A panel the kernel says is mounted a quarter turn swaps width and height")
    func mounting() {
        let portraitPanel = PanelConnector(name: "card0-DSI-1", status: "connected\n", modes: "800x1280\n")
        let turned = PanelDetection.detect(
            connectors: [portraitPanel], kernelCommandLine: "quiet video=DSI-1:panel_orientation=right_side_up splash\n")
        #expect(turned.natural == .landscape)
        #expect(turned.description == "landscape (panel DSI-1, 800x1280, mounted right_side_up)")
        let upsideDown = PanelDetection.detect(
            connectors: [portraitPanel], kernelCommandLine: "video=DSI-1:800x1280,panel_orientation=upside_down")
        #expect(upsideDown.natural == .portrait)
        let otherConnector = PanelDetection.detect(
            connectors: [portraitPanel], kernelCommandLine: "video=eDP-1:panel_orientation=left_side_up")
        #expect(otherConnector.natural == .portrait)
    }

    @Test("Modes and names are read as sysfs writes them")
    func parsing() {
        #expect(PanelConnector(name: "card0-eDP-1", status: "", modes: "1920x1080i\n").preferredMode! == (1920, 1080))
        #expect(PanelConnector(name: "card0-eDP-1", status: "", modes: "").preferredMode == nil)
        #expect(PanelConnector(name: "card0-eDP-1", status: "", modes: "garbage\n").preferredMode == nil)
        #expect(PanelConnector(name: "card10-DSI-2", status: "", modes: "").connector == "DSI-2")
        #expect(!PanelConnector(name: "card0-DP-1", status: "", modes: "").isInternal)
    }

    @Test("The setting wins, then a trace's line, then the panel, which is asked only when neither decides")
    func precedence() {
        let laptop = PanelDetection(natural: .landscape, source: .panel(connector: "eDP-1", width: 1920, height: 1080, mounting: nil))
        var asked = 0
        let panel = { () -> PanelDetection in
            asked += 1
            return laptop
        }
        #expect(PanelDetection.choose(.portrait, trace: .landscape, panel: panel) == PanelDetection(natural: .portrait, source: .setting))
        #expect(PanelDetection.choose(.auto, trace: .portrait, panel: panel) == PanelDetection(natural: .portrait, source: .trace))
        #expect(asked == 0)
        #expect(PanelDetection.choose(.auto, trace: nil, panel: panel) == laptop)
        #expect(asked == 1)
    }
}
