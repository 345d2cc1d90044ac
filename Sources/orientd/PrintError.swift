import OrientPosix

/// Writes a line to standard error: messages for people, never mixed into the JSON on standard output. Through
/// the copy of standard error the log uses (``StandardError/logDescriptor``), so that a capture of what a C library
/// writes never catches it.
func printError(_ message: String) {
    StandardError.writeLine(message)
}
