import Foundation
import Logging
@testable import OrientSensors
import Synchronization

/// HID hub buffers a test scripts, in place of libiio's, for ``IIOBuffered`` in a capture: each device's scans,
/// read failure and clock are a ``BufferScript`` the test registers under the device's folder before the capture
/// opens it. What the device's files say (its scan element type, scale and offset) is read as libiio's buffer has it
/// read (``BufferedChannelAttributes``).
enum ScriptedBuffers: ChannelBufferOpening {
    private static let scripts = Mutex<[String: BufferScript]>([:])

    /// The script of the device at `path` from now on.
    static func register(_ script: BufferScript, for path: String) {
        scripts.withLock { $0[path] = script }
    }

    private static func script(_ device: IIODeviceFacts) throws(AttributeFault) -> BufferScript {
        guard let script = scripts.withLock({ $0[device.path] }) else {
            throw AttributeFault(path: device.path, problem: .refused("has no buffer script"))
        }
        return script
    }

    static func open(
        _ device: IIODeviceFacts, channel: String, attributes: BufferedChannelAttributes, trigger: String,
        logger: Logger
    ) throws(AttributeFault) -> any ChannelBuffer {
        Buffer(script: try script(device), nodePath: "/dev/\(device.id)", attributes: attributes)
    }

    static func clock(for device: IIODeviceFacts) -> () -> Double {
        let script = scripts.withLock { $0[device.path] }
        return { script?.now ?? 0 }
    }

    /// One opening of a script's buffer: a drain takes every scan sent since, and keeps the last.
    private final class Buffer: ChannelBuffer {
        let script: BufferScript
        let nodePath: String
        let offset: Double
        let scale: Double
        private(set) var value: Double?

        init(script: BufferScript, nodePath: String, attributes: BufferedChannelAttributes) {
            self.script = script
            self.nodePath = nodePath
            offset = attributes.offset
            scale = attributes.scale
        }

        func drain() throws(AttributeFault) -> Bool {
            let drained = script.drain()
            if let errno = drained.failure { throw AttributeFault(path: nodePath, problem: .unreadable(errno: errno)) }
            guard let raw = drained.raw else { return false }
            value = (raw + offset) * scale
            return true
        }
    }
}

/// What a device's buffer holds for its capture: raw scans the test sends, a read failure it sets, and the clock the
/// buffer's silences are timed by.
final class BufferScript: Sendable {
    private struct State {
        var scans: [Double] = []
        var failure: Int32?
        var drains = 0
        var now = 0.0
    }

    private let state = Mutex(State())

    /// Sends a scan of `raw`.
    func send(_ raw: Double) { state.withLock { $0.scans.append(raw) } }

    /// Every drain from now on fails with `errno` (a node that ended under its reader).
    func fail(_ errno: Int32) { state.withLock { $0.failure = errno } }

    /// Seconds on the buffer's clock.
    var now: Double {
        get { state.withLock { $0.now } }
        set { state.withLock { $0.now = newValue } }
    }

    /// How many times the capture has drained it.
    var drains: Int { state.withLock { $0.drains } }

    /// Takes the scans sent since the last drain: the last one's raw value, or the failure.
    fileprivate func drain() -> (raw: Double?, failure: Int32?) {
        state.withLock { state in
            state.drains += 1
            defer { state.scans = [] }
            return (state.scans.last, state.failure)
        }
    }

    /// Waits (5 s at most) until the capture has drained it `count` more times: that many reads have happened.
    func waitForDrains(_ count: Int) async -> Bool {
        let target = drains + count
        let deadline = ContinuousClock.now + .seconds(5)
        while drains < target {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }
}
