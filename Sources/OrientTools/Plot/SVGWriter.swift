/// Writes SVG markup into a string: elements with attributes in the order given, text escaped, one element per
/// line so that a plot kept in the repository diffs readably.
struct SVGWriter {
    private(set) var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"

    /// An element with children, written by `content`.
    mutating func element(
        _ name: String, _ attributes: KeyValuePairs<String, String> = [:], content: (inout SVGWriter) -> Void
    ) {
        text += "<" + name + Self.attributes(attributes) + ">\n"
        content(&self)
        text += "</" + name + ">\n"
    }

    /// An element holding only text (or nothing at all).
    mutating func element(_ name: String, _ attributes: KeyValuePairs<String, String> = [:], text content: String? = nil) {
        guard let content else {
            text += "<" + name + Self.attributes(attributes) + "/>\n"
            return
        }
        text += "<" + name + Self.attributes(attributes) + ">" + Self.escape(content) + "</" + name + ">\n"
    }

    /// An empty element with a tooltip: SVG's `<title>` child is what viewers show on hover.
    mutating func element(_ name: String, _ attributes: KeyValuePairs<String, String>, title: String) {
        text += "<" + name + Self.attributes(attributes) + "><title>" + Self.escape(title) + "</title></" + name + ">\n"
    }

    private static func attributes(_ attributes: KeyValuePairs<String, String>) -> String {
        var result = ""
        for (name, value) in attributes { result += " " + name + "=\"" + escape(value) + "\"" }
        return result
    }

    /// Escapes markup characters, and replaces the control characters XML 1.0 does not allow (a file name may
    /// hold anything).
    static func escape(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                result.unicodeScalars.append("\u{FFFD}")
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
