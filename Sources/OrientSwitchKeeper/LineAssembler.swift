/// Cuts what the socket delivers, in chunks of any size, into lines, and drops every line longer than a limit
/// without keeping it: a peer that never sends a newline costs the keeper `limit` bytes, not its memory.
struct LineAssembler {
    let limit: Int
    private var line: [UInt8] = []
    /// The current line went past the limit: the rest of it, up to its newline, is dropped.
    private var overlong = false

    init(limit: Int) {
        self.limit = limit
    }

    /// The lines that `chunk` completes, in order, without their newlines; overlong ones are left out.
    mutating func take(_ chunk: some Sequence<UInt8>) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        for byte in chunk {
            if byte == UInt8(ascii: "\n") {
                if !overlong { lines.append(line) }
                line.removeAll(keepingCapacity: true)
                overlong = false
            } else if !overlong {
                line.append(byte)
                if line.count > limit {
                    line.removeAll(keepingCapacity: true)
                    overlong = true
                }
            }
        }
        return lines
    }
}
