import Glibc
import OrientCore
import OrientTrace

/// Reads the input as a trace two ways and checks that:
/// - TraceReader (chunked file reading) and TraceLineParser fed line by line agree on every sample and error;
/// - samples are finite with increasing times, carry a base reading and a hinge angle exactly when the header row
///   has their columns, angles from 0 to 360, and errors carry a line number inside the input;
/// - the metadata of an accepted trace survives writing: the preamble TraceFormat writes for it reads back to
///   a preamble that writes identically, with the same mount matrices and columns.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let direct = parseLines(bytes)
    let read = readFile(bytes)
    precondition(direct.samples == read.samples, "TraceReader and TraceLineParser read different samples")
    precondition(direct.error?.line == read.error?.line, "different error lines: \(direct.error, default: "none") vs \(read.error, default: "none")")
    if case .badData(let message)? = read.error?.kind {
        precondition(message == direct.error?.message, "different errors: \(direct.error, default: "none") vs \(message)")
    } else {
        precondition(read.error == nil && direct.error == nil, "unexpected error \(read.error, default: "none")")
    }

    let lineCount = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
    if let line = direct.error?.line { precondition((1...max(lineCount, 1)).contains(line), "error line \(line) of \(lineCount)") }
    var previous = -Double.infinity
    for sample in direct.samples {
        let a = sample.acceleration
        precondition(sample.time.isFinite && a.x.isFinite && a.y.isFinite && a.z.isFinite, "non-finite sample")
        precondition((sample.base != nil) == direct.columns.hasBase, "a base reading without base columns, or none with")
        if let b = sample.base { precondition(b.x.isFinite && b.y.isFinite && b.z.isFinite, "non-finite base reading") }
        precondition((sample.hinge != nil) == direct.columns.hasHinge, "a hinge angle without its column, or none with")
        if let degrees = sample.hinge?.degrees { precondition((0...360).contains(degrees), "a hinge angle out of range") }
        precondition(sample.time > previous, "time does not increase")
        previous = sample.time
    }

    if direct.error == nil { checkPreambleRoundTrip(direct.metadata, columns: direct.columns) }
    return 0
}

private struct Outcome {
    var samples: [AccelSample] = []
    var metadata = TraceMetadata()
    var columns = TraceColumns.display
    var error: TraceLineError?
}

/// The line parser over the input split at newlines, as TraceReader does it but without the buffering.
private func parseLines(_ bytes: UnsafeBufferPointer<UInt8>) -> Outcome {
    var outcome = Outcome()
    var parser = TraceLineParser()
    var number = 0
    var start = 0
    do throws(TraceLineError) {
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            number += 1
            if let sample = try parser.parse(line: UnsafeBufferPointer(rebasing: bytes[start..<end]), number: number) {
                outcome.samples.append(sample)
            }
            start = end + 1
        }
        try parser.finish(lines: number)
    } catch {
        outcome.error = error
    }
    outcome.metadata = parser.metadata
    outcome.columns = parser.columns
    return outcome
}

private struct ReadOutcome {
    var samples: [AccelSample] = []
    var error: TraceError?
}

/// One scratch file for every input, already unlinked so that nothing is left behind; TraceReader opens it
/// through /proc, which gives a fresh descriptor at offset 0.
private let scratchFile: Int32 = {
    var template = Array("/tmp/fuzz-trace-XXXXXX".utf8CString)
    let fd = mkstemp(&template)
    precondition(fd >= 0, "mkstemp failed")
    unlink(template)
    return fd
}()

/// TraceReader on a file holding the input.
private func readFile(_ bytes: UnsafeBufferPointer<UInt8>) -> ReadOutcome {
    let fd = scratchFile
    precondition(ftruncate(fd, 0) == 0, "ftruncate failed")
    if let base = bytes.baseAddress, bytes.count > 0 {
        precondition(pwrite(fd, base, bytes.count, 0) == bytes.count, "short write to the scratch file")
    }
    var outcome = ReadOutcome()
    do throws(TraceError) {
        // The /proc path opens the memfd afresh, at offset 0.
        let reader = try TraceReader(path: "/proc/self/fd/\(fd)")
        while let sample = try reader.next() { outcome.samples.append(sample) }
    } catch {
        outcome.error = error
    }
    return outcome
}

private func checkPreambleRoundTrip(_ metadata: TraceMetadata, columns: TraceColumns) {
    let written = TraceFormat.preamble(metadata, columns: columns)
    var parser = TraceLineParser()
    var number = 0
    do throws(TraceLineError) {
        for line in written.utf8.split(separator: UInt8(ascii: "\n")) {
            number += 1
            let sample = try Array(line).withUnsafeBufferPointer { buffer throws(TraceLineError) in
                try parser.parse(line: buffer, number: number)
            }
            precondition(sample == nil, "a written preamble holds a sample")
        }
        try parser.finish(lines: number)
    } catch {
        fatalError("the preamble written for an accepted trace does not read back: \(error)\n\(written)")
    }
    precondition(parser.metadata.mountMatrix == metadata.mountMatrix, "the mount matrix changes when written\n\(written)")
    precondition(
        parser.metadata.baseMountMatrix == metadata.baseMountMatrix, "the base mount matrix changes when written\n\(written)")
    precondition(parser.columns == columns, "the columns change when written\n\(written)")
    let rewritten = TraceFormat.preamble(parser.metadata, columns: parser.columns)
    precondition(rewritten == written, "the preamble changes when read and written again:\n\(written)---\n\(rewritten)")
}
