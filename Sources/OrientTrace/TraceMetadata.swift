import OrientCore

/// The `# key: value` lines before a trace's header row.
public struct TraceMetadata: Sendable, Equatable {
    /// From `# mount-matrix:`; `nil` when absent, which means identity.
    public var mountMatrix: MountMatrix?
    /// From `# source:`, e.g. `iio:device0 accel_3d`.
    public var source: String?
    /// Every key and value in file order, including keys orientd does not know.
    public var entries: [Entry] = []

    public struct Entry: Sendable, Equatable {
        public let key: String
        public let value: String

        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    public init(mountMatrix: MountMatrix? = nil, source: String? = nil) {
        self.mountMatrix = mountMatrix
        self.source = source
    }
}
