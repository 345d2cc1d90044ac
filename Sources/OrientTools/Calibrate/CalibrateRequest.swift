import Logging

/// What `orientd calibrate` was asked to do.
public struct CalibrateRequest: Sendable {
    /// The hwdb file written when none is given: where systemd's 60-sensor.hwdb says local quirks go.
    public static let defaultHwdbFile = "/etc/udev/hwdb.d/61-sensor-local.hwdb"

    /// The display accelerometer (name, id or path); `nil` chooses it as the daemon does.
    public var device: String?
    /// The keyboard-base accelerometer; `nil`: the one whose location is `base`, if any.
    public var baseDevice: String?
    public var hwdbFile: String
    /// `false` with --no-write: measure and print only.
    public var writes: Bool

    public init(device: String?, baseDevice: String?, hwdbFile: String?, writes: Bool) {
        self.device = device
        self.baseDevice = baseDevice
        self.hwdbFile = hwdbFile ?? Self.defaultHwdbFile
        self.writes = writes
    }

    /// Only the system's own local file is loaded into the hwdb and triggered: a file elsewhere is a draft or a test.
    public var updatesSystem: Bool { hwdbFile == Self.defaultHwdbFile }
}

/// What the command gives the session: its own file reading and atomic writing, where messages go, and the signals.
public struct CalibrateEnvironment: Sendable {
    /// A file's text; `nil` when it does not exist. Throws when it exists but cannot be read.
    public var readFile: @Sendable (_ path: String) throws -> String?
    /// Replaces a file whole, atomically (a temporary file beside it, flushed, renamed over it).
    public var writeFile: @Sendable (_ text: String, _ path: String) throws -> Void
    /// A line for the person at the terminal (standard error, so that standard output keeps the result).
    public var say: @Sendable (String) -> Void
    /// SIGINT and SIGTERM.
    public var signals: AsyncStream<Int32>
    /// Whether Enter takes a pose: standard input is a terminal.
    public var readsEnter: Bool
    public var logger: Logger

    public init(
        readFile: @escaping @Sendable (String) throws -> String?,
        writeFile: @escaping @Sendable (String, String) throws -> Void,
        say: @escaping @Sendable (String) -> Void, signals: AsyncStream<Int32>, readsEnter: Bool, logger: Logger
    ) {
        self.readFile = readFile
        self.writeFile = writeFile
        self.say = say
        self.signals = signals
        self.readsEnter = readsEnter
        self.logger = logger
    }
}

/// Why the session ended without a result; `status` is the exit status (sysexits.h).
public struct CalibrateFailure: Error, CustomStringConvertible {
    public var status: Int32
    public var description: String

    /// EX_DATAERR: the poses disagree.
    static func check(_ message: String) -> Self { .init(status: 65, description: message) }
    /// EX_NOINPUT: no sensor to calibrate.
    static func noSensor(_ message: String) -> Self { .init(status: 66, description: message) }
    /// EX_UNAVAILABLE: the sensor went away, or no hwdb match can be built.
    static func unavailable(_ message: String) -> Self { .init(status: 69, description: message) }
    /// EX_CANTCREAT.
    static func cannotWrite(_ message: String) -> Self { .init(status: 73, description: message) }
    /// EX_IOERR.
    static func cannotRead(_ message: String) -> Self { .init(status: 74, description: message) }
    /// 128 + the signal, as a shell reports a process the signal ended.
    static func interrupted(_ signal: Int32) -> Self {
        .init(status: 128 + signal, description: "interrupted: nothing was written")
    }
}
