/// Which readings a trace's lines hold, as its header row says: the display sensor's always, then the keyboard
/// base's, then a kernel hinge sensor's angle, each when the trace has it.
public struct TraceColumns: Sendable, Equatable {
    /// `bx,by,bz`: the keyboard base's sensor, in its own sensor frame.
    public var hasBase: Bool
    /// `hinge`, last: a kernel hinge sensor's angle in degrees, or `unknown`.
    public var hasHinge: Bool

    public init(base: Bool, hinge: Bool) {
        self.hasBase = base
        self.hasHinge = hinge
    }

    /// `t,x,y,z`: the display sensor alone (format v1).
    public static let display = TraceColumns(base: false, hinge: false)
    /// `t,x,y,z,bx,by,bz`: the display sensor, then the keyboard base's, each in its own sensor frame (format v2).
    public static let displayAndBase = TraceColumns(base: true, hinge: false)
    /// `t,x,y,z,hinge`: the display sensor and a kernel hinge sensor (format v3).
    public static let displayAndHinge = TraceColumns(base: false, hinge: true)
    /// `t,x,y,z,bx,by,bz,hinge`: both accelerometers and a kernel hinge sensor (format v3).
    public static let displayBaseAndHinge = TraceColumns(base: true, hinge: true)

    static let displayNames = ["t", "x", "y", "z"]
    static let baseNames = ["bx", "by", "bz"]
    static let hingeName = "hinge"

    public var count: Int { 4 + (hasBase ? 3 : 0) + (hasHinge ? 1 : 0) }
    public var names: [String] {
        Self.displayNames + (hasBase ? Self.baseNames : []) + (hasHinge ? [Self.hingeName] : [])
    }
    public var headerRow: String { names.joined(separator: ",") }
    /// The hinge's column, the last; `nil` without one.
    public var hingeIndex: Int? { hasHinge ? count - 1 : nil }

    /// The format version that introduced these columns, and the one written in the magic line. Traces without a
    /// hinge keep their older versions, so that an orientd from before v2 or v3 still reads them.
    public var version: Int { hasHinge ? 3 : hasBase ? 2 : 1 }

    /// The columns of a header row (compared without case or surrounding white space), or `nil` if it is not one.
    init?(header fields: [String]) {
        var rest = fields[...]
        guard rest.starts(with: Self.displayNames) else { return nil }
        rest = rest.dropFirst(Self.displayNames.count)
        let base = rest.starts(with: Self.baseNames)
        if base { rest = rest.dropFirst(Self.baseNames.count) }
        let hinge = rest.first == Self.hingeName
        if hinge { rest = rest.dropFirst() }
        guard rest.isEmpty else { return nil }
        self.init(base: base, hinge: hinge)
    }
}
