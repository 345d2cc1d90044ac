import CLinuxInput
import Testing

@testable import OrientInput

#if canImport(Glibc)
import Glibc
#endif

/// The keeper's seccomp filter, installed in a child process (it cannot be taken back, and would bind the test
/// process). Each request is tried on /dev/null, which answers every ioctl with ENOTTY: a request the filter lets
/// through fails with ENOTTY, one it refuses with EPERM.
@Suite("The uinput request filter")
struct UinputRequestFilterTests {
    struct Request: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var passes: Bool
        var call: @Sendable (Int32) -> Int32
    }

    static let requests = [
        Request(testDescription: "UI_SET_EVBIT EV_SW", passes: true) { orientd_uinput_enable_event_type($0, Int32(EV_SW)) },
        Request(testDescription: "UI_SET_SWBIT SW_TABLET_MODE", passes: true) { orientd_uinput_enable_switch($0, Int32(SW_TABLET_MODE)) },
        Request(testDescription: "UI_DEV_SETUP, UI_DEV_CREATE", passes: true) { orientd_uinput_create($0, "probe", 0, 0) },
        Request(testDescription: "UI_DEV_DESTROY", passes: true) { orientd_uinput_destroy($0) },
        Request(testDescription: "an evdev request (EVIOCGBIT)", passes: true) { fd in
            var bits: UInt64 = 0
            return orientd_evdev_event_bits(fd, 0, &bits, 8)
        },
        Request(testDescription: "UI_SET_EVBIT EV_KEY: a keyboard", passes: false) { orientd_uinput_enable_event_type($0, Int32(EV_KEY)) },
        Request(testDescription: "UI_SET_EVBIT EV_REL: a mouse", passes: false) { orientd_uinput_enable_event_type($0, Int32(EV_REL)) },
        Request(testDescription: "UI_SET_EVBIT EV_ABS: a touchscreen", passes: false) { orientd_uinput_enable_event_type($0, Int32(EV_ABS)) },
        Request(testDescription: "UI_SET_SWBIT SW_LID", passes: false) { orientd_uinput_enable_switch($0, Int32(SW_LID)) },
    ]

    /// What the child saw, as its exit status.
    enum Outcome: Int32 {
        case refused = 10, passed, otherResult, noFilter, noDevNull
    }

    @Test("Only the requests a tablet-mode switch needs pass", arguments: requests)
    func request(_ request: Request) {
        let child = fork()
        if child == 0 {
            // Only C calls from here to _exit: the child of a threaded process may take no lock another held.
            guard orientd_uinput_restrict_requests() == 0 else { _exit(Outcome.noFilter.rawValue) }
            let fd = open("/dev/null", O_WRONLY)
            guard fd >= 0 else { _exit(Outcome.noDevNull.rawValue) }
            let result = request.call(fd)
            let outcome: Outcome =
                result == -1 && errno == EPERM ? .refused : result == -1 && errno == ENOTTY ? .passed : .otherResult
            _exit(outcome.rawValue)
        }
        #expect(child > 0)
        var status: Int32 = 0
        #expect(waitpid(child, &status, 0) == child)
        // WIFEXITED and WEXITSTATUS, which Swift does not import.
        let exited = status & 0x7f == 0
        #expect(exited, "the child was killed (signal \(status & 0x7f))")
        let outcome = Outcome(rawValue: (status >> 8) & 0xff)
        #expect(outcome == (request.passes ? .passed : .refused))
    }
}
