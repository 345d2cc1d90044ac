#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: which one, and the errno.
package struct SystemCallError: Error, Equatable, CustomStringConvertible {
    package let function: String
    package let errno: Int32

    package init(_ function: String, errno: Int32) {
        self.function = function
        self.errno = errno
    }

    package var description: String { "\(function) failed: \(String(cString: strerror(errno))) (errno \(errno))" }
}
