import OrientCore
import OrientProtocol
import OrientSampleSource

extension StatusReport.Sensor {
    /// The sensor as `status` describes it; `mountRepair`: whether the daemon repairs mirrored matrices.
    init(_ description: SensorDescription, mountRepair: Bool) {
        self.init(
            id: description.id, name: description.name, mode: description.mode.rawValue, rate: description.rate,
            mountMatrix: description.mountMatrix.text, mountMatrixSource: description.mountMatrixSource.description,
            mountMatrixRepaired: mountRepair && description.mountMatrix.repairingHandedness().isApplied,
            location: description.location.rawValue,
            base: description.base.map { base in
                StatusReport.BaseSensor(
                    id: base.id, name: base.name, path: base.path, mountMatrix: base.mountMatrix.text,
                    mountMatrixSource: base.mountMatrixSource.description,
                    mountMatrixRepaired: mountRepair && base.mountMatrix.repairingHandedness().isApplied)
            },
            hinge: description.hinge.map { StatusReport.HingeSensor(id: $0.id, name: $0.name, path: $0.path) })
    }
}
