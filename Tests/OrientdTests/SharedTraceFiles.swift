import Foundation
import OrientScenarios
import OrientTestSupport

// The trace files the spawned suites share with the in-process ones (OrientTestSupport), by the names these suites
// use.
typealias ConvertibleTrace = OrientTestSupport.ConvertibleTrace

/// Writes a scenario as a trace file, with its mount matrix in the metadata.
func writeTrace(_ scenario: Scenario) throws -> String {
    try TraceFiles.write(scenario)
}

func temporaryFolder() throws -> URL {
    try TraceFiles.folder()
}
