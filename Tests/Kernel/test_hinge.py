"""Intel's hinge sensor on the kernel's own drivers: a convertible whose sensor hub has the display's accelerometer and
the hinge (a custom sensor, as an Intel sensor hub gives it), and no base accelerometer. hid-sensor-custom takes the
custom sensor and makes HID-SENSOR-INT-020b, where hid-sensor-custom-intel-hinge binds and makes the IIO device
`hinge`. Debian 12's kernel is built without that driver: scripts/kernel-hinge-module.sh builds it on the host from
Debian's source of the same kernel, and this test loads it (unsigned, so it taints the kernel). Where it was not built
or does not load, the test is skipped, saying why (it fails instead where ORIENTD_KERNEL_HINGE=required, as in CI).

The hub reports the angle the test sets; orientd names the sensor in its status, follows its angle to tablet mode and
back, decides the tablet-mode switch on it, and the switch its keeper makes toggles where libinput reads it."""
import math
import os
import pathlib
import subprocess
import unittest

from guest import PATIENCE, REPO, Fixture, Keeper, KernelTestCase, Lines, Monitor, settle, status, wait_for
from test_uinput import NAME, event_node, input_device

MODULE = "hid-sensor-custom-intel-hinge.ko"
# Where guest_main.sh copied what the host built for this kernel: the module, or why-not.
BUILT = REPO / ".build" / "kernel-hinge" / os.uname().release
DRIVER = pathlib.Path("/sys/bus/platform/drivers/hid_sensor_custom_intel_hinge")
CUSTOM = pathlib.Path("/sys/bus/platform/drivers/hid_sensor_custom")
# What the driver needs loaded first (modinfo's depends: hid-sensor-trigger brings hid-sensor-iio-common,
# hid-sensor-hub and the IIO core). hid-sensor-custom, which makes the platform device it binds to, is left to udev,
# which loads it when the hub's custom sensor appears (see bind_custom_sensor).
DEPENDENCIES = ["hid-sensor-trigger"]


def load_driver():
    """Loads the module built for this kernel; returns why not, or None once its driver is registered."""
    if DRIVER.is_dir():
        return None
    module = BUILT / MODULE
    if not module.is_file():
        why = (BUILT / "why-not").read_text().strip() if (BUILT / "why-not").is_file() else "not built"
        return f"no {MODULE} for {os.uname().release}: {why} (scripts/kernel-hinge-module.sh)"
    for name in DEPENDENCIES:
        result = subprocess.run(["modprobe", name], capture_output=True, text=True, timeout=PATIENCE)
        if result.returncode != 0:
            return f"modprobe {name} failed: {result.stderr.strip()}"
    result = subprocess.run(["insmod", str(module)], capture_output=True, text=True, timeout=PATIENCE)
    if result.returncode != 0:
        messages = subprocess.run(["dmesg"], capture_output=True, text=True).stdout.splitlines()[-5:]
        return f"insmod {module} failed: {result.stderr.strip()}; the kernel said: {' / '.join(messages)}"
    if not DRIVER.is_dir():
        return f"{module} loaded, but no platform driver hid_sensor_custom_intel_hinge registered"
    return None


def setUpModule():
    why = load_driver()
    if why is None:
        return
    if os.environ.get("ORIENTD_KERNEL_HINGE") == "required":
        raise AssertionError(f"Intel's hinge driver is required here: {why}")
    raise unittest.SkipTest(why)


def display_leaning_back(degrees):
    """The display accelerometer's reading, in m/s², with the screen leaning back `degrees` from upright."""
    tilt = math.radians(degrees)
    return [0.0, -math.cos(tilt) * 9.80665, -math.sin(tilt) * 9.80665]


def bind_custom_sensor(hid):
    """Has hid-sensor-custom take the hub's custom sensor as Intel's hinge, where it did not. It tells the hinge by
    its manufacturer and serial number, read from the hub at its probe. A probe made while the hub's own probe is
    still running (hid-sensor-custom already loaded when the hub appeared: it probes the new platform device at once)
    reads zeros: the HID core drops every report, GET_REPORT answers included, until a HID driver's probe has
    returned. The sensor is then taken as a generic custom sensor (its fields as sysfs attributes) and no
    HID-SENSOR-INT-020b is made; bound again, it is read as after a machine's boot, when udev loads the module."""
    cell = next(pathlib.Path(hid).glob("HID-SENSOR-2000e1.*"), None)
    if cell is None or (pathlib.Path(hid) / "HID-SENSOR-INT-020b").exists():
        return
    if not (cell / "driver").exists():
        subprocess.run(["modprobe", "hid-sensor-custom"], check=True, timeout=PATIENCE)
        if (cell / "driver").exists():
            return
    else:
        print(f"\n    hid-sensor-custom took {cell.name} for a generic sensor: bound again", flush=True)
        (CUSTOM / "unbind").write_text(cell.name)
    (CUSTOM / "bind").write_text(cell.name)


def read(path):
    return pathlib.Path(path).read_text().strip()


class IntelHingeTests(KernelTestCase):
    def setUp(self):
        self.hub = Fixture("hid_hub.py", "--sensors", "accel,hinge", log_name="hinge-hub.log")
        self.addCleanup(self.hub.close)
        # A laptop on a desk, its screen leaning back 10°, opened to 100°.
        self.hub.request({"set": "accel", "values": display_leaning_back(10)})
        self.hub.request({"set": "hinge", "values": [100, 10, 270]})
        devices = self.hub.request({"devices": True, "timeout": PATIENCE / 2})
        if "hinge" in devices["missing"]:
            bind_custom_sensor(devices["hid"])
            devices = self.hub.request({"devices": True, "timeout": PATIENCE})
        self.assertEqual(devices["missing"], [], devices)
        self.hinge = devices["sensors"]["hinge"]
        settle()
        super().setUp()

    def test_the_kernel_driver_gives_the_angle_orientd_follows(self):
        # The driver's device, as its source lays it out: three labelled angles in radians per unit, read from the hub.
        iio = pathlib.Path(self.hinge["iio"])
        self.assertEqual(self.hinge["name"], "hinge")
        self.assertEqual(pathlib.Path(self.hinge["platform"]).name, "HID-SENSOR-INT-020b")
        self.assertEqual(os.path.realpath(pathlib.Path(self.hinge["platform"]) / "driver"), str(DRIVER.resolve()))
        self.assertEqual([read(iio / f"in_angl{n}_label") for n in range(3)], ["hinge", "screen", "keyboard"])
        self.assertEqual(read(iio / "in_angl_scale"), "0.017453293")
        self.assertEqual(read(iio / "in_angl_offset"), "0")
        self.assertEqual([read(iio / f"in_angl{n}_raw") for n in range(3)], ["100", "10", "270"])
        # The installed udev rule starts orientd and the switch's keeper where such a sensor appears.
        properties = subprocess.run(["udevadm", "info", "--query=property", f"--path={iio}"], capture_output=True,
                                    text=True, check=True, timeout=PATIENCE).stdout
        wants = next((line.split("=", 1)[1] for line in properties.splitlines()
                      if line.startswith("SYSTEMD_WANTS=")), "")
        self.assertEqual(set(wants.split()), {"orientd.service", "orientd-tablet-mode-switch.service"}, wants)

        keeper = Keeper()
        self.addCleanup(keeper.stop)
        monitor = Monitor()
        self.addCleanup(monitor.close)
        laptop = monitor.wait_for(lambda line: line.get("posture") == "laptop", what="a laptop, from the hinge")
        self.assertEqual((laptop.get("hinge-angle"), laptop.get("tablet-mode")), (100, False), laptop)
        described = status()["sensor"]["hinge"]
        device = iio.name
        self.assertEqual((described["id"], described["name"]), (device, "hinge"), described)
        self.assertEqual(os.path.realpath(described["path"]), str(iio), described)
        self.assertIn(f"tablet-mode switch: on (the kernel's hinge sensor hinge ({device})", self.service.log)
        node = event_node(wait_for(lambda: input_device(NAME), what="orientd's tablet-mode switch"))
        events = Lines(["stdbuf", "-oL", "libinput", "debug-events", "--device", str(node)])
        self.addCleanup(events.close)
        events.wait_for(lambda line: "DEVICE_ADDED" in line, what="libinput opening the switch")

        # Folded back into a tablet, and opened again.
        self.hub.request({"set": "hinge", "angle": 350})
        tablet = monitor.wait_for(lambda line: line.get("posture") == "tablet", what="a tablet, folded to 350°")
        self.assertEqual((tablet.get("hinge-angle"), tablet.get("tablet-mode")), (350, True), tablet)
        events.wait_for(lambda line: "switch tablet-mode state 1" in line, what="libinput: the switch on")
        self.hub.request({"set": "hinge", "angle": 100})
        opened = monitor.wait_for(lambda line: line.get("posture") == "laptop", what="a laptop again, opened to 100°")
        self.assertEqual((opened.get("hinge-angle"), opened.get("tablet-mode")), (100, False), opened)
        events.wait_for(lambda line: "switch tablet-mode state 0" in line, what="libinput: the switch off")
        toggles = [line for line in events.lines if "switch tablet-mode state" in line]
        self.assertEqual(len(toggles), 2, toggles)


if __name__ == "__main__":
    unittest.main()
