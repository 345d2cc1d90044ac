import ArgumentParser
import Testing

@testable import orientd

/// Runs one of orientd's offline commands in this process, as `orientd ARGUMENTS` would: the arguments parsed and
/// validated as the binary parses them, then the command's work, writing to a string instead of standard output.
enum InProcessOrientd {
    struct Output {
        /// The exit status the binary would give.
        let status: Int32
        /// What it would print on standard output, up to a failure.
        let stdout: String
        /// What it would print on standard error: ArgumentParser's message for bad usage, or the command's own.
        let stderr: String
    }

    static func run(_ arguments: [String]) -> Output {
        var stdout = ""
        do {
            switch try Orientd.parseAsRoot(arguments) {
            case let classify as Orientd.Classify: try classify.classify(to: &stdout)
            case let plot as Orientd.Plot: try plot.plot(printingTo: &stdout)
            case let check as Orientd.CheckConfig: try check.check(printingTo: &stdout)
            case let other: Issue.record("\(type(of: other)) does not run in process")
            }
            return Output(status: 0, stdout: stdout, stderr: "")
        } catch let failure as CommandFailure {
            return Output(status: failure.status.rawValue, stdout: stdout, stderr: failure.message)
        } catch {
            // As the binary's main reports what parsing and the command throw.
            return Output(status: Orientd.exitCode(for: error).rawValue, stdout: stdout, stderr: Orientd.fullMessage(for: error))
        }
    }
}
