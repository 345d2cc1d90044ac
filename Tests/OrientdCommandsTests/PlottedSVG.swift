import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// An SVG written by `orientd plot`, parsed as XML (which fails unless it is well-formed).
struct PlottedSVG {
    let root: XMLElement
    let size: Int

    init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        size = data.count
        root = try #require(try XMLDocument(data: data).rootElement())
    }

    func element(id: String) throws -> XMLElement {
        try #require(Self.descendants(of: root).first { $0.value(of: "id") == id }, "no #\(id)")
    }

    func contains(id: String) -> Bool {
        Self.descendants(of: root).contains { $0.value(of: "id") == id }
    }

    /// The orientation of each span in a band, in order: the class of its rectangles.
    func band(_ id: String) throws -> [String] {
        try element(id: id).elements(forName: "rect").map { $0.value(of: "class") ?? "" }
    }

    /// The trace time of each commit mark, read from its tooltip ("12.34 s: landscape-left, interface ...").
    func commitTimes() throws -> [Double] {
        try element(id: "commits").elements(forName: "path").map { mark in
            let title = try #require(mark.elements(forName: "title").first?.stringValue)
            return try #require(title.components(separatedBy: " s: ").first.flatMap(Double.init))
        }
    }

    var heading: String {
        Self.descendants(of: root).first { $0.value(of: "class") == "heading" }?.stringValue ?? ""
    }

    private static func descendants(of element: XMLElement) -> [XMLElement] {
        let children = (element.children ?? []).compactMap { $0 as? XMLElement }
        return children + children.flatMap(descendants)
    }
}

extension XMLElement {
    /// An attribute's value. `attribute(forName:)` misses attributes of an element in a default namespace (here
    /// SVG's) on Linux, so this looks through them all.
    func value(of attribute: String) -> String? {
        attributes?.first { $0.name == attribute }?.stringValue
    }
}

/// Consecutive repeats dropped: the spans a band shows for a sequence of values.
func runs(_ values: [String]) -> [String] {
    values.reduce(into: []) { result, value in if result.last != value { result.append(value) } }
}
