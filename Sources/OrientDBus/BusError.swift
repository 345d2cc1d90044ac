#if canImport(Glibc)
import Glibc
#endif

/// A failed sd-bus call: which one and the errno it returned.
struct BusError: Error, Equatable, CustomStringConvertible {
    let function: String
    let errno: Int32

    /// sd-bus returns failures as negative errno values.
    init(_ function: String, result: Int32) {
        self.function = function
        self.errno = -result
    }

    var description: String { "\(function) failed: \(String(cString: strerror(errno))) (errno \(errno))" }
}

/// `result`, or a BusError when sd-bus reports a failure.
@discardableResult
func check(_ function: String, _ result: Int32) throws(BusError) -> Int32 {
    guard result >= 0 else { throw BusError(function, result: result) }
    return result
}
