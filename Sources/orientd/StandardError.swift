#if canImport(Glibc)
import Glibc
#endif

/// Writes a line to standard error: messages for people, never mixed into the JSON on standard output.
func printError(_ message: String) {
    var line = message
    line += "\n"
    line.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(2, bytes.baseAddress! + offset, bytes.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }
}
