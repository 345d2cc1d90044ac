import Foundation
import Testing

/// What `orientctl watch --exec` hands its command besides the ORIENTD_ variables: orientctl's own environment,
/// its standard streams and no other descriptor; and what it does when the command fails.
@Suite("orientctl watch: the hook's process")
struct WatchHookTests {
    @Test("The hook gets orientctl's environment with the ORIENTD_ variables over it, and none of its descriptors but 0 to 2")
    func environmentAndDescriptors() throws {
        let (path, expected) = try DaemonEndToEndTests.trace(seed: 25)
        let daemon = try DaemonHarness(["--replay", path, "--speed", "10", "--exit-at-end"])
        try daemon.waitUntilListening()
        let record = daemon.folder + "/hook.log"
        // What a program the hook runs has open, in the hook's first run only.
        let hook = """
            echo "$HOOK_TEST_MARK $ORIENTD_INTERFACE" >> \(record); \
            [ -e \(record).fds ] || ls -l /proc/self/fd > \(record).fds
            """
        let output = try OrientdProcess.run(
            ["watch", "--exec", hook, "--socket", daemon.socket], executable: OrientdProcess.orientctl,
            environment: ["HOOK_TEST_MARK": "inherited", "ORIENTD_INTERFACE": "stale"])
        #expect(output.status == 69, "\(output.stderr)")
        let lines = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines == (try expected.interfaces(mask: .all)).map { "inherited \($0)" })
        // orientctl's socket and its event loop's epoll, eventfd and timerfd stay out of the hook.
        let descriptors = try String(contentsOfFile: record + ".fds", encoding: .utf8)
        #expect(descriptors.contains(" 0 -> "))
        #expect(!descriptors.contains("socket:") && !descriptors.contains("anon_inode:"), "\(descriptors)")
    }

    @Test("A failing hook is reported with its exit status or signal, and watch goes on to the next change")
    func failingHook() throws {
        let (path, expected) = try DaemonEndToEndTests.trace(seed: 25)
        let changes = try expected.interfaces(mask: .all)
        try #require(changes.count >= 2)
        let daemon = try DaemonHarness(["--replay", path, "--speed", "10", "--exit-at-end"])
        try daemon.waitUntilListening()
        let record = daemon.folder + "/hook.log"
        // The first run exits 3, the second is killed by SIGTERM, the rest succeed.
        let hook = """
            echo run >> \(record); runs=$(wc -l < \(record)); \
            [ "$runs" = 1 ] && exit 3; [ "$runs" = 2 ] && kill -TERM $$; exit 0
            """
        let output = try OrientdProcess.run(
            ["watch", "--exec", hook, "--socket", daemon.socket], executable: OrientdProcess.orientctl)
        #expect(output.status == 69, "\(output.stderr)")
        #expect(output.stderr.contains("orientctl: the command exited with status 3\n"), "\(output.stderr)")
        #expect(output.stderr.contains("orientctl: the command was killed by signal 15\n"), "\(output.stderr)")
        let runs = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n").count
        #expect(runs == changes.count)
    }
}
