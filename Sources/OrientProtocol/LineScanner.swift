/// Finds where the next line ends in bytes that keep arriving, looking at each byte once.
///
/// The part of a pending line already searched without finding a newline is remembered, so a line trickled in
/// one byte at a time costs time linear in its length, not quadratic. Every connection shares one event loop, so
/// a slow sender must not cost the others.
public struct LineScanner: Sendable {
    /// Bytes at the start of the pending data already known to hold no newline.
    private var searched = 0
    /// Every byte looked at over the scanner's life: what the single-pass promise is checked by.
    public private(set) var bytesExamined = 0

    public init() {}

    /// The length of the first line in `pending` (the newline excluded), or `nil` when its newline has not
    /// arrived. `pending` must begin where it began at the last call, plus what arrived since, until
    /// ``lineTaken()`` says that a line and its newline were removed from its front.
    public mutating func lineLength<Bytes: Collection<UInt8>>(in pending: Bytes) -> Int? {
        let unsearched = pending.dropFirst(searched)
        guard let newline = unsearched.firstIndex(of: UInt8(ascii: "\n")) else {
            bytesExamined += unsearched.count
            searched = pending.count
            return nil
        }
        let length = pending.distance(from: pending.startIndex, to: newline)
        bytesExamined += length - searched + 1
        return length
    }

    /// The line found last, and its newline, were taken off the front of the pending bytes.
    public mutating func lineTaken() {
        searched = 0
    }
}
