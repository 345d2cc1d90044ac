/// The parts a daemon configures, as one list of types: a value holds one part of each, in order, which the
/// compiler checks where it is made; ``types`` is the same list without making any (what `orientd run --help` and
/// the tests read).
public struct PartList<each Part: ConfiguredPart>: Sendable {
    private let parts: (repeat each Part)

    public init(_ parts: repeat each Part) {
        self.parts = (repeat each parts)
    }

    /// Each part's type, in the list's order.
    public static var types: [any ConfiguredPart.Type] {
        var types: [any ConfiguredPart.Type] = []
        for type in repeat (each Part).self { types.append(type) }
        return types
    }

    /// The parts, in the list's order.
    public var all: [any ConfiguredPart] {
        var all: [any ConfiguredPart] = []
        for part in repeat each parts { all.append(part) }
        return all
    }
}
