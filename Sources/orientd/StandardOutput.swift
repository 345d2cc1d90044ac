/// Standard output as a stream, for the commands whose work writes to any `TextOutputStream` (a test's string).
struct StandardOutput: TextOutputStream {
    mutating func write(_ string: String) {
        print(string, terminator: "")
    }
}
