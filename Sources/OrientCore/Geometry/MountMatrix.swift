/// How a sensor is mounted: the rotation from the sensor's frame to the device frame.
///
/// Device axis *i* is row *i* · sensor vector, as in the IIO ABI and systemd's hwdb
/// (`ACCEL_MOUNT_MATRIX=x1, y1, z1; x2, y2, z2; x3, y3, z3`).
public struct MountMatrix: Sendable, Hashable {
    public var rows: (x: Vector3, y: Vector3, z: Vector3)

    public init(x: Vector3, y: Vector3, z: Vector3) {
        rows = (x, y, z)
    }

    public static let identity = MountMatrix(x: Vector3(1, 0, 0), y: Vector3(0, 1, 0), z: Vector3(0, 0, 1))

    /// The reading in the device frame.
    @inlinable
    public func apply(_ v: Vector3) -> Vector3 {
        Vector3(rows.x.dot(v), rows.y.dot(v), rows.z.dot(v))
    }

    public var determinant: Double { rows.x.dot(rows.y.cross(rows.z)) }

    /// The matrix with its z row replaced by x × y, the only z row a right-handed sensor can have.
    ///
    /// Most published matrices were checked only in the four upright orientations, where z does not matter, and
    /// most of them are mirror images (determinant -1) that swap face up and face down. The x and y rows are
    /// trusted; z is derived from them. ``HandednessRepair/changed`` says whether this changed anything.
    public func repairingHandedness() -> HandednessRepair {
        let z = rows.x.cross(rows.y)
        let repaired = MountMatrix(x: rows.x, y: rows.y, z: z)
        return HandednessRepair(original: self, repaired: repaired)
    }

    public static func == (a: MountMatrix, b: MountMatrix) -> Bool {
        a.rows.x == b.rows.x && a.rows.y == b.rows.y && a.rows.z == b.rows.z
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rows.x)
        hasher.combine(rows.y)
        hasher.combine(rows.z)
    }
}

/// The outcome of ``MountMatrix/repairingHandedness()``.
public struct HandednessRepair: Sendable, Hashable {
    public let original: MountMatrix
    public let repaired: MountMatrix

    public var changed: Bool { original != repaired }
    /// x and y are parallel (or one is zero), so no z row can make this a rotation.
    public var isSingular: Bool { repaired.rows.z.lengthSquared < 1e-12 }
    /// The matrix to apply: the repaired one, or the original when it is singular (unrepaired, it at least keeps
    /// the upright orientations).
    public var inUse: MountMatrix { isSingular ? original : repaired }
    /// Whether the matrix in use differs from the original: the repair changed it and could be made.
    public var isApplied: Bool { changed && !isSingular }
    /// The original is a mirror image (determinant below zero) that the repair turned into a rotation.
    public var repairedMirror: Bool { isApplied && original.determinant < 0 }
}
