/// Which readings a trace's lines hold, as its header row says.
public enum TraceColumns: Sendable, Equatable {
    /// `t,x,y,z`: the display sensor alone (format v1).
    case display
    /// `t,x,y,z,bx,by,bz`: the display sensor, then the keyboard base's, each in its own sensor frame (format v2).
    case displayAndBase

    /// Every column name in order; a display-only trace has the first four.
    static let allNames = ["t", "x", "y", "z", "bx", "by", "bz"]

    public var count: Int { self == .display ? 4 : 7 }
    public var hasBase: Bool { self == .displayAndBase }
    public var names: ArraySlice<String> { Self.allNames.prefix(count) }
    public var headerRow: String { names.joined(separator: ",") }

    /// The format version that introduced these columns, and the one written in the magic line. Display-only
    /// traces stay v1, so that an orientd from before v2 still reads them.
    public var version: Int { self == .display ? 1 : 2 }

    /// The columns of a header row (compared without case or surrounding white space), or `nil` if it is not one.
    init?(header fields: [String]) {
        switch fields {
        case Array(Self.allNames.prefix(4)): self = .display
        case Self.allNames: self = .displayAndBase
        default: return nil
        }
    }
}
