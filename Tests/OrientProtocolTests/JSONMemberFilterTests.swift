import OrientProtocol
import Testing

@Suite("Removing members from a JSON object's text")
struct JSONMemberFilterTests {
    private func strip(_ text: String) -> String { JSONMemberFilter.removing(["ok", "id"], from: text) }

    @Test("A reply loses ok and id; the rest, unknown fields included, is kept as sent and in order")
    func reply() {
        #expect(strip(#"{"ok":true,"id":1,"device":"face-up","interface":"portrait","t":null,"fresh":false}"#)
            == #"{"device":"face-up","interface":"portrait","t":null,"fresh":false}"#)
        #expect(strip(#"{"device":"portrait","ok":true,"t":81.25,"id":"x"}"#) == #"{"device":"portrait","t":81.25}"#)
        // Numbers keep their spelling, not a re-encoding of it.
        #expect(strip(#"{"ok":true,"t":1.50e2,"n":-0.0}"#) == #"{"t":1.50e2,"n":-0.0}"#)
    }

    @Test("Nested objects, arrays and strings holding delimiters are skipped whole")
    func nesting() {
        let nested = #"{"ok":true,"id":2,"sensor":{"id":"iio:device0","ok":1},"list":[1,{"a":"}]"}],"s":"x\",\"id\":3"}"#
        #expect(strip(nested) == #"{"sensor":{"id":"iio:device0","ok":1},"list":[1,{"a":"}]"}],"s":"x\",\"id\":3"}"#)
        #expect(strip(#"{"ok":true,"id":3}"#) == "{}")
        #expect(strip("{}") == "{}")
        #expect(strip(#" { "ok" : true , "a" : 1 } "#) == #"{"a" : 1}"#)
    }

    @Test("Text that is not one JSON object comes back unchanged", arguments: [
        "", "[1,2]", #"{"ok":true"#, #"{"ok":true,}"#, #"{"ok" true}"#, #"{"a":"unterminated}"#, #"{"a":1} trailing"#,
        #"{"a":{"b":1}"#, "garbage",
    ])
    func notAnObject(text: String) {
        #expect(strip(text) == text)
    }
}
