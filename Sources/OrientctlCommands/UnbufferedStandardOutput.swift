#if canImport(Glibc)
import Glibc
#endif

/// Standard output as a stream for the commands' work, each write sent at once: `monitor` is read line by line
/// through pipes, where buffered output would sit until the buffer filled. Tests give the work a string instead.
struct UnbufferedStandardOutput: TextOutputStream {
    mutating func write(_ string: String) {
        var text = string
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(1, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}

extension TextOutputStream {
    /// Writes `text` and its newline in one write, so that the line reaches a pipe whole.
    mutating func writeLine(_ text: String) {
        write(text + "\n")
    }
}
