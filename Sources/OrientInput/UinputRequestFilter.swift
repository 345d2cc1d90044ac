import CLinuxInput

#if canImport(Glibc)
import Glibc
#endif

/// The uinput requests a process may make from now on: only those that make, and remove, a tablet-mode switch. A
/// uinput device cannot gain capabilities once made, but the next one made may have any; with this filter a
/// compromised keeper can make no device that types or points. Irreversible, for every thread of the process.
public enum UinputRequestFilter {
    /// Installs the filter (seccomp): UI_SET_EVBIT with EV_SW, UI_SET_SWBIT with SW_TABLET_MODE, UI_DEV_SETUP,
    /// UI_DEV_CREATE and UI_DEV_DESTROY pass; any other uinput request fails with EPERM; other calls are left alone.
    public static func restrictToTabletModeSwitch() throws(InputDeviceError) {
        guard orientd_uinput_restrict_requests() == 0 else {
            throw InputDeviceError("seccomp filter on uinput requests", errno: errno)
        }
    }
}
