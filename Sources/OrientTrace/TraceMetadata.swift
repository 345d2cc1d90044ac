import OrientCore

/// The `# key: value` lines before a trace's header row.
public struct TraceMetadata: Sendable, Equatable {
    /// From `# mount-matrix:`, the display sensor's; `nil` when absent, which means identity.
    public var mountMatrix: MountMatrix?
    /// From `# base-mount-matrix:`, the keyboard base sensor's; `nil` when absent, which means identity. Like
    /// `mountMatrix`, as published: the engine repairs its handedness.
    public var baseMountMatrix: MountMatrix?
    /// From `# source:`, e.g. `iio:device0 accel_3d`.
    public var source: String?
    /// From `# natural-orientation:`, the recorded device's panel: what its poses are called.
    public var naturalOrientation: NaturalOrientation?
    /// Every key and value in file order, including keys orientd does not know.
    public var entries: [Entry] = []

    /// The keys read into the fields above; the preamble writes them from the fields, not from `entries`.
    static let fieldKeys: Set<String> = ["mount-matrix", "base-mount-matrix", "source", "natural-orientation"]

    public struct Entry: Sendable, Equatable {
        public let key: String
        public let value: String

        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    public init(
        mountMatrix: MountMatrix? = nil, baseMountMatrix: MountMatrix? = nil, source: String? = nil,
        naturalOrientation: NaturalOrientation? = nil
    ) {
        self.mountMatrix = mountMatrix
        self.baseMountMatrix = baseMountMatrix
        self.source = source
        self.naturalOrientation = naturalOrientation
    }
}
