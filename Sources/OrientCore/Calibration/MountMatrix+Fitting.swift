import RealModule

/// A gravity direction as a sensor measured it, and the direction the device frame must read in the same pose.
public struct GravityCorrespondence: Sendable, Hashable {
    public var sensor: Vector3
    public var device: Vector3

    public init(sensor: Vector3, device: Vector3) {
        self.sensor = sensor
        self.device = device
    }
}

extension MountMatrix {
    /// The rotation that turns each correspondence's sensor direction into its device direction: device axis i is
    /// row i · sensor vector, and z is completed as x × y, so the result is always right-handed.
    ///
    /// Two measured directions are never exactly at the angle their device directions make, so both pairs are
    /// first made orthonormal with the error split evenly between them (the bisector of the two directions is kept).
    /// `nil` when either vector is zero or the two are within about 6° of parallel: they fix no rotation.
    public static func fitting(_ first: GravityCorrespondence, _ second: GravityCorrespondence) -> MountMatrix? {
        guard let sensor = orthonormalFrame(first.sensor, second.sensor),
            let device = orthonormalFrame(first.device, second.device)
        else { return nil }
        // M = D · Sᵀ with the frames as columns: M s_k = d_k for each of the three frame vectors.
        func row(_ i: KeyPath<Vector3, Double>) -> Vector3 {
            sensor.0 * device.0[keyPath: i] + sensor.1 * device.1[keyPath: i] + sensor.2 * device.2[keyPath: i]
        }
        let x = row(\.x)
        let y = row(\.y)
        return MountMatrix(x: x, y: y, z: x.cross(y))
    }

    /// `a` and `b` turned towards or away from each other by the same angle until they are perpendicular, and
    /// their cross product: a right-handed orthonormal frame.
    static func orthonormalFrame(_ a: Vector3, _ b: Vector3) -> (Vector3, Vector3, Vector3)? {
        guard let u = a.normalized, let v = b.normalized, u.cross(v).length > 0.1 else { return nil }
        guard let sum = (u + v).normalized, let difference = (u - v).normalized else { return nil }
        let half = 1 / Double.sqrt(2)
        let first = (sum + difference) * half
        let second = (sum - difference) * half
        return (first, second, first.cross(second))
    }

    /// The angle in degrees of the rotation that turns `other` into this matrix (both taken as rotations): 0 when
    /// they are equal, 180 at most.
    public func degrees(from other: MountMatrix) -> Double {
        let trace = rows.x.dot(other.rows.x) + rows.y.dot(other.rows.y) + rows.z.dot(other.rows.z)
        return Double.acos(min(1, max(-1, (trace - 1) / 2))) * 180 / .pi
    }

    /// Whether the rows are orthonormal and right-handed within `tolerance`: a proper rotation, as a real sensor's
    /// mounting is.
    public func isRotation(tolerance: Double = 1e-3) -> Bool {
        let r = [rows.x, rows.y, rows.z]
        for i in 0..<3 {
            for j in 0..<3 where abs(r[i].dot(r[j]) - (i == j ? 1 : 0)) > tolerance { return false }
        }
        return abs(determinant - 1) <= tolerance
    }
}

extension Vector3 {
    /// The unit vector along this one; `nil` for a zero or non-finite vector.
    public var normalized: Vector3? {
        let length = self.length
        guard length > 1e-12, length.isFinite else { return nil }
        return self * (1 / length)
    }

    /// The angle between the two vectors in degrees, 0 to 180; 180 when either is zero.
    public func degrees(to other: Vector3) -> Double {
        guard let u = normalized, let v = other.normalized else { return 180 }
        return Double.acos(min(1, max(-1, u.dot(v)))) * 180 / .pi
    }
}
