/// The plot's colours, in one style sheet that the drawing and the legend share by class name.
enum PlotStyle {
    /// The series drawn, in the order of the decimator's lanes: class name and legend label.
    static let series: [(name: String, label: String)] = [("x", "x"), ("y", "y"), ("z", "z"), ("magnitude", "|a|")]

    /// Every orientation name, device and interface, in the legend's order. A name has the same colour in both
    /// bands; the landscape names cross over between them as they do everywhere in orientd.
    static let orientations: [String] = [
        "unknown", "portrait", "portrait-upside-down", "landscape-left", "landscape-right", "face-up", "face-down",
    ]

    static let sheet = """
        svg{font-family:sans-serif;font-size:12px}
        text{fill:#333}
        .heading{font-size:14px;font-weight:bold}
        .grid{stroke:#e4e4e4;stroke-width:1}
        .frame{fill:none;stroke:#999}
        .series{fill:none;stroke-width:1;stroke-linejoin:round}
        .x{stroke:#d62728}
        .y{stroke:#2ca02c}
        .z{stroke:#1f77b4}
        .magnitude{stroke:#111}
        .gravity{stroke:#777;stroke-dasharray:5 4}
        .gated{fill:#ff9f1c;fill-opacity:0.22}
        .commit{stroke:#111;stroke-width:1}
        .label{font-size:11px;fill:#222}
        .unknown{fill:#eeeeee}
        .portrait{fill:#9ecae1}
        .portrait-upside-down{fill:#fdae6b}
        .landscape-left{fill:#a1d99b}
        .landscape-right{fill:#fc9272}
        .face-up{fill:#e7d4e8}
        .face-down{fill:#c2a5cf}
        """

    /// The rules only a two-sensor plot needs, added after ``sheet`` so that other plots stay as they were: the θ
    /// line, its unknown stretches and thresholds, the postures (their `unknown` is the orientations') and tablet
    /// mode.
    static let postureSheet = """
        .hinge-angle{stroke:#6a3d9a;stroke-width:1.5}
        .unknown-angle{fill:#999999;fill-opacity:0.15}
        .threshold{stroke:#6a3d9a;stroke-opacity:0.6;stroke-dasharray:3 3}
        .closed{fill:#bdbdbd}
        .laptop{fill:#c6dbef}
        .flat{fill:#fee391}
        .tent{fill:#bcbddc}
        .stand{fill:#c7e9c0}
        .tablet{fill:#fdd0a2}
        .tablet-mode-unknown{fill:#eeeeee}
        .tablet-mode-off{fill:#d9d9d9}
        .tablet-mode-on{fill:#74c476}
        """

    /// A rough width of `text` at 12 px, to lay the legend out and to decide whether a span's name fits in it.
    static func textWidth(_ text: String, fontSize: Double = 12) -> Double {
        Double(text.count) * fontSize * 0.58
    }
}
