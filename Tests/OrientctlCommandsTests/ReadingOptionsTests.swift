import OrientCore
import OrientProtocol
@testable import OrientctlCommands
import Testing

@Suite("orientctl's reading flags")
struct ReadingOptionsTests {
    @Test("--light and --proximity ask for their kinds; every kind the socket offers has a flag")
    func flags() throws {
        #expect(try ReadingOptions.parse([]).asked.isEmpty)
        #expect(try ReadingOptions.parse(["--light"]).asked == [.light])
        #expect(try ReadingOptions.parse(["--light", "--proximity"]).asked == Set(SensorKind.readings))
    }
}
