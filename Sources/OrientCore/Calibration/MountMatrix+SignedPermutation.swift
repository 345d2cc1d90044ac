extension MountMatrix {
    /// The 24 proper rotations that map each axis onto an axis: every sensor mounted square to the device has one of
    /// them as its matrix (the other 24 signed permutations are mirror images, which no real sensor is).
    public static let axisAlignedRotations: [MountMatrix] = {
        let axes = [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)]
        var result: [MountMatrix] = []
        for xAxis in 0..<3 {
            for yAxis in 0..<3 where yAxis != xAxis {
                for xSign in [1.0, -1.0] {
                    for ySign in [1.0, -1.0] {
                        let x = axes[xAxis] * xSign
                        let y = axes[yAxis] * ySign
                        result.append(MountMatrix(x: x, y: y, z: x.cross(y)))
                    }
                }
            }
        }
        return result
    }()

    /// The axis-aligned rotation closest to this matrix (taken as a rotation): x snapped to the sensor axis its row
    /// leans on most, y to the one its row leans on most among the other two, z = x × y. For a matrix within a few degrees
    /// of an axis-aligned rotation this is that rotation; `degrees(from:)` says how far it is.
    public var nearestAxisAligned: MountMatrix {
        func axis(_ row: Vector3, excluding excluded: Int?) -> (index: Int, vector: Vector3) {
            let components = [row.x, row.y, row.z]
            var best = excluded == 0 ? 1 : 0
            for index in 0..<3 where index != excluded && abs(components[index]) > abs(components[best]) {
                best = index
            }
            var vector = [0.0, 0.0, 0.0]
            vector[best] = components[best] < 0 ? -1 : 1
            return (best, Vector3(vector[0], vector[1], vector[2]))
        }
        let x = axis(rows.x, excluding: nil)
        let y = axis(rows.y, excluding: x.index)
        return MountMatrix(x: x.vector, y: y.vector, z: x.vector.cross(y.vector))
    }

    /// The nearest axis-aligned rotation when it is within `tolerance` degrees, else this matrix.
    public func snappedToAxes(within tolerance: Double) -> (matrix: MountMatrix, snapped: Bool) {
        let nearest = nearestAxisAligned
        return degrees(from: nearest) <= tolerance ? (nearest, true) : (self, false)
    }

    /// Each entry rounded to `places` decimal places (-0 written as 0): a matrix measured to about a degree, written
    /// without pretending to more.
    public func rounded(places: Int) -> MountMatrix {
        let scale = (0..<places).reduce(1.0) { product, _ in product * 10 }
        func round(_ v: Vector3) -> Vector3 {
            func one(_ value: Double) -> Double {
                let r = (value * scale).rounded() / scale
                return r == 0 ? 0 : r
            }
            return Vector3(one(v.x), one(v.y), one(v.z))
        }
        return MountMatrix(x: round(rows.x), y: round(rows.y), z: round(rows.z))
    }
}
