import Glibc
import OrientServer
import Testing

@Suite("Open-file limit")
struct FileDescriptorLimitTests {
    @Test("The soft limit is raised to what is needed, and never past the hard limit")
    func raise() {
        var limit = rlimit()
        #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        let hard = Int(clamping: limit.rlim_max)
        let soft = Int(clamping: limit.rlim_cur)
        if soft < hard {
            #expect(FileDescriptorLimit.raise(toAtLeast: soft + 1) == soft + 1)
        }
        #expect(FileDescriptorLimit.raise(toAtLeast: 16) ?? 0 >= 16, "an already sufficient limit is kept")
        let capped = FileDescriptorLimit.raise(toAtLeast: Int(Int32.max))
        #expect(capped != nil && capped! <= hard && capped! >= soft)
    }
}
