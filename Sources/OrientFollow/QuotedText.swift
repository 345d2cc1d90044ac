/// A double-quoted string with backslash escapes, as sway's command parser and Lua both read it.
func doubleQuoted(_ text: String) -> String {
    var quoted = "\""
    for character in text {
        switch character {
        case "\\": quoted += "\\\\"
        case "\"": quoted += "\\\""
        case "\n": quoted += "\\n"
        default: quoted.append(character)
        }
    }
    return quoted + "\""
}
