import ArgumentParser

/// The exit statuses of sysexits.h that orientd's commands use. Bad usage (64) comes from ArgumentParser's
/// validation errors.
enum ExitStatus {
    /// EX_DATAERR: the input data was malformed.
    static let badData = ExitCode(65)
    /// EX_NOINPUT: an input file did not exist or was not readable.
    static let noInput = ExitCode(66)
    /// EX_SOFTWARE: the daemon failed after starting (the log says why).
    static let software = ExitCode(70)
    /// EX_CANTCREAT: an output file could not be created.
    static let cannotCreate = ExitCode(73)
    /// EX_IOERR: an error while reading or writing.
    static let ioError = ExitCode(74)
    /// EX_TEMPFAIL: a stop did not end in time (``StopDeadline``); the log names the service that did not return.
    static let stopTimedOut = ExitCode(75)
    /// EX_CONFIG: the configuration is invalid (the message names the file, line and key).
    static let configError = ExitCode(78)
}
