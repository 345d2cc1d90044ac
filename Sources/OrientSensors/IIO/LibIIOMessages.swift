import Logging
import OrientPosix

/// What libiio writes to standard error during the calls that print (opening a context, creating and destroying a
/// buffer), logged as orientd's own lines instead: the two it prints on every machine at debug level, anything else
/// as a notice, each once per call (``StandardError/capturing(_:)``).
enum LibIIOMessages {
    /// Runs the libiio call `body` on `device` (`iio:device0`) for `purpose` (`opening its buffer`) and logs what it
    /// printed.
    static func logging<Result>(
        _ device: String, _ purpose: String, _ body: () throws -> Result
    ) rethrows -> Result {
        let (result, lines) = try StandardError.capturing(body)
        guard !lines.isEmpty else { return result }
        let logger = Logger(label: "orientd")
        for line in lines { logger.log(level: level(of: line), "libiio, \(purpose) \(device): \(line)") }
        return result
    }

    /// The level a line of libiio's deserves.
    static func level(of line: String) -> Logger.Level {
        // libiio asks for the kernel's mmap interface to IIO buffers, which only DMA drivers offer, and reads
        // with read(2) as before: nothing is wrong.
        if line.contains("High-speed mode not enabled") { return .debug }
        // Disabling the buffer or its channels (writing buffer/enable or scan_elements/*_en) failed because the device
        // is gone: the unplug orientd itself reports, once.
        if line.contains("Error during buffer disable") || line.contains("Error during channel") && line.contains("disable") {
            return .debug
        }
        return .notice
    }
}
