import Testing

import OrientPosix

@Suite("Atomic file writing")
struct AtomicFileTests {
    @Test("The temporary file sits beside the target, hidden and named for the process")
    func temporaryName() {
        #expect(AtomicFile.temporaryName(for: "docs/plot.svg", process: 42) == "docs/.plot.svg.42.tmp")
        #expect(AtomicFile.temporaryName(for: "plot.svg", process: 42) == ".plot.svg.42.tmp")
    }
}
