import ArgumentParser
import OrientCore
import OrientTrace

extension EngineOptions {
    /// The engine `classify` and `plot` run over a trace: the display's orientation always, and the hinge angle
    /// and posture too when the trace has the base's columns or the hinge's. The options' matrices win over the
    /// trace's.
    func engine(for reader: TraceReader) throws -> ConvertibleEngine {
        do {
            return try engineConfiguration(traceNatural: reader.metadata.naturalOrientation).makeEngine(
                displayMatrix: reader.metadata.mountMatrix ?? .identity,
                baseMatrix: reader.columns.hasBase ? reader.metadata.baseMountMatrix ?? .identity : nil,
                hasHinge: reader.columns.hasHinge,
                tracker: try tracker())
        } catch let error as ClassifierSettingsError {
            throw ValidationError(error.description)
        }
    }
}
