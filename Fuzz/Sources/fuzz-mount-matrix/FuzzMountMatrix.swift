import OrientCore

/// Parses the input as a mount matrix. Beyond not crashing:
/// - an accepted matrix prints (``MountMatrix/text``) to text that parses back to the same matrix;
/// - extra white space around the text, including a CRLF line end, changes nothing (the parser promises that).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let matrix = try? MountMatrix(parsing: text) else { return 0 }

    let printed = matrix.text
    guard let reparsed = try? MountMatrix(parsing: printed) else {
        fatalError("printed matrix \(printed.debugDescription) of \(text.debugDescription) does not parse")
    }
    precondition(reparsed == matrix, "\(text.debugDescription) printed as \(printed.debugDescription) reparses differently")

    let padded = " \t" + text + " \r\n"
    guard let paddedMatrix = try? MountMatrix(parsing: padded) else {
        fatalError("\(text.debugDescription) parses but not with white space around it")
    }
    precondition(paddedMatrix == matrix, "white space around \(text.debugDescription) changes the matrix")
    return 0
}
