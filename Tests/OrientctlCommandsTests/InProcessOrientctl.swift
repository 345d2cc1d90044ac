import ArgumentParser
import OrientProtocol
import Testing

@testable import OrientctlCommands

/// Runs an orientctl command in this process, as `orientctl ARGUMENTS` would: the arguments parsed and validated as
/// the binary parses them, then the command's work, writing to a string instead of standard output. `watch`'s
/// hook is not run: what it would be given is kept instead.
enum InProcessOrientctl {
    struct Output {
        /// The exit status the binary would give.
        let status: Int32
        /// What it would print on standard output, up to a failure.
        let stdout: String
        /// What it would print on standard error: ArgumentParser's message for bad usage, or the command's own.
        let stderr: String
        /// `watch`: the ORIENTD_ variables of each run of the hook, in order.
        let hookRuns: [[String: String]]
    }

    static func run(_ arguments: [String]) async -> Output {
        var stdout = ""
        var hookRuns: [[String: String]] = []
        do {
            switch try Orientctl.parseAsRoot(arguments) {
            case let get as Orientctl.Get: try await get.get(printingTo: &stdout)
            case let monitor as Orientctl.Monitor: try await monitor.monitor(printingTo: &stdout)
            case let status as Orientctl.Status: try await status.status(printingTo: &stdout)
            case let lock as Orientctl.Lock: try await lock.send(printingTo: &stdout)
            case let unlock as Orientctl.Unlock: try await unlock.send(printingTo: &stdout)
            case let mask as Orientctl.Mask: try await mask.send(printingTo: &stdout)
            case let watch as Orientctl.Watch:
                try await watch.watch { state, previous in
                    hookRuns.append(HookEnvironment.variables(state, previousInterface: previous))
                }
            case let other: Issue.record("\(type(of: other)) does not run in process")
            }
            return Output(status: 0, stdout: stdout, stderr: "", hookRuns: hookRuns)
        } catch let error as ClientError {
            return Output(status: error.status.rawValue, stdout: stdout, stderr: error.line, hookRuns: hookRuns)
        } catch {
            // As the binary's main reports what parsing throws.
            return Output(
                status: Orientctl.exitCode(for: error).rawValue, stdout: stdout, stderr: Orientctl.fullMessage(for: error),
                hookRuns: hookRuns)
        }
    }
}
