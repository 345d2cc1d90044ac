import OrientCore

#if canImport(Glibc)
import Glibc
import OrientPosix
import OrientSampleSource
#endif

extension PanelDiscovery {
    /// The internal panel's detection now and again after every DRM connector event (a graphics driver that
    /// loads after orientd, a panel that comes up late). A thread blocks on a udev monitor of the `drm` subsystem
    /// until something changes: no idle wakeups. Only changed detections are yielded.
    public static func changes(kernelCommandLinePath: String = "/proc/cmdline") -> AsyncStream<PanelDetection> {
        let (stream, continuation) = AsyncStream.makeStream(of: PanelDetection.self, bufferingPolicy: .bufferingNewest(1))
        let stop: WakeupPipe
        let udev: UdevSession
        let monitor: Int32
        do {
            stop = try WakeupPipe()
            udev = try UdevSession()
            monitor = try udev.monitorDescriptor(subsystem: "drm")
        } catch {
            continuation.yield(detect(kernelCommandLinePath: kernelCommandLinePath))
            continuation.finish()
            return stream
        }
        continuation.onTermination = { _ in stop.signal() }
        nonisolated(unsafe) let session = udev
        startThread(name: "orientd-panel") {
            var last: PanelDetection?
            while true {
                let detection = PanelDetection.detect(
                    connectors: session.drmConnectors(), kernelCommandLine: readSmallFile(kernelCommandLinePath))
                if detection != last {
                    continuation.yield(detection)
                    last = detection
                }
                guard session.waitForEvents(monitor: monitor, stop: stop.readDescriptor, { _ in }) else { break }
            }
            continuation.finish()
        }
        return stream
    }
}
