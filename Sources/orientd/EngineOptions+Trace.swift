import ArgumentParser
import OrientCore
import OrientTrace

extension EngineOptions {
    /// The engine `classify` and `plot` run over a trace: the display's orientation always, and the hinge angle
    /// and posture too when the trace has the base's columns. The options' matrices win over the trace's.
    func engine(for reader: TraceReader) throws -> ConvertibleEngine {
        let settings = try classifierSettings()
        let repair = !noMountRepair
        do {
            let orientation = try OrientationEngine(
                mountMatrix: try mountMatrixOverride() ?? reader.metadata.mountMatrix ?? .identity,
                repairHandedness: repair, settings: settings, tracker: try tracker())
            var posture: PostureEngine?
            if reader.columns.hasBase {
                posture = try PostureEngine(
                    baseMountMatrix: try baseMountMatrixOverride() ?? reader.metadata.baseMountMatrix ?? .identity,
                    repairHandedness: repair, motionGate: settings)
            }
            return ConvertibleEngine(orientation: orientation, posture: posture, rotateIn: try rotateIn())
        } catch let error as ClassifierSettingsError {
            throw ValidationError(error.description)
        }
    }
}
