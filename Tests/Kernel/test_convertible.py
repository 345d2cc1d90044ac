"""A convertible on the kernel's own drivers: two HID hubs, the display's accelerometer and the keyboard base's (tagged
ACCEL_LOCATION=base by a udev rule, as a machine's hwdb tags it), playing Traces/fold.trace (a laptop folded into a
tablet and opened again). The posture follows it to tablet mode and back; with the settings as installed, the udev
rule asks for the tablet-mode switch's keeper, and the switch it makes through uinput toggles on and off where
libinput reads it, and sway's bindswitch runs its commands, as the desktops act on it."""
import fcntl
import os
import pathlib
import pwd
import struct
import subprocess
import unittest

from guest import PATIENCE, REPO, Fixture, Keeper, KernelTestCase, Lines, Monitor, settle, wait_for
from test_uinput import NAME, event_node, input_device

FOLD = REPO / "Traces" / "fold.trace"
DISPLAY_PRODUCT, BASE_PRODUCT = "F01D", "BA5E"
# What a convertible's hwdb entry says of its two sensors: the base's location, and the trace's mount matrices.
RULES = pathlib.Path("/run/udev/rules.d/61-orientd-tests-fold.rules")


def matrix(key):
    return next(line.split(": ", 1)[1] for line in FOLD.read_text().splitlines() if line.startswith(f"# {key}: "))


def write_rules():
    RULES.write_text(
        f'SUBSYSTEM=="iio", KERNELS=="*:1209:{DISPLAY_PRODUCT}.*", ENV{{ACCEL_MOUNT_MATRIX}}="{matrix("mount-matrix")}"\n'
        f'SUBSYSTEM=="iio", KERNELS=="*:1209:{BASE_PRODUCT}.*", ENV{{ACCEL_LOCATION}}="base", '
        f'ENV{{ACCEL_MOUNT_MATRIX}}="{matrix("base-mount-matrix")}"\n')
    subprocess.run(["udevadm", "control", "--reload"], check=True, timeout=PATIENCE)


class FoldTests(KernelTestCase):
    def setUp(self):
        write_rules()
        self.addCleanup(RULES.unlink)
        self.display = Fixture("hid_hub.py", "--sensors", "accel", "--product", "0x" + DISPLAY_PRODUCT,
                               log_name="display-hub.log")
        self.addCleanup(self.display.close)
        self.base = Fixture("hid_hub.py", "--sensors", "accel", "--product", "0x" + BASE_PRODUCT, log_name="base-hub.log")
        self.addCleanup(self.base.close)
        # Held at the trace's first pose (a laptop opened to 111°) until it plays.
        first = next(line for line in FOLD.read_text().splitlines() if line[:1].isdigit()).split(",")
        self.display.request({"set": "accel", "values": [float(v) for v in first[1:4]]})
        self.base.request({"set": "accel", "values": [float(v) for v in first[4:7]]})
        for hub in (self.display, self.base):
            hub.request({"devices": True})
        settle()
        super().setUp()

    def test_folded_into_a_tablet_and_opened_again(self):
        # The installed rule asks for the keeper where the base accelerometer appears; systemd would start it.
        base = next(path for path in pathlib.Path("/sys/bus/iio/devices").glob("iio:device*")
                    if f":1209:{BASE_PRODUCT}." in str(path.resolve()))
        properties = subprocess.run(["udevadm", "info", "--query=property", f"--path={base.resolve()}"],
                                    capture_output=True, text=True, check=True, timeout=PATIENCE).stdout
        wants = next((line.split("=", 1)[1] for line in properties.splitlines() if line.startswith("SYSTEMD_WANTS=")), "")
        self.assertIn("orientd-tablet-mode-switch.service", wants.split(), wants)
        keeper = Keeper()
        self.addCleanup(keeper.stop)
        monitor = Monitor()
        self.addCleanup(monitor.close)
        monitor.wait_for(lambda line: line.get("posture") == "laptop", what="a laptop, from both sensors")
        node = event_node(wait_for(lambda: input_device(NAME), what="orientd's tablet-mode switch"))
        events = Lines(["stdbuf", "-oL", "libinput", "debug-events", "--device", str(node)])
        self.addCleanup(events.close)
        events.wait_for(lambda line: "DEVICE_ADDED" in line, what="libinput opening the switch")
        sway = Sway(node)
        self.addCleanup(sway.close)
        self.display.request({"play": str(FOLD)})
        self.base.request({"play": str(FOLD), "columns": "base"})
        monitor.wait_for(lambda line: line.get("tablet-mode") is True, what="tablet mode on, folded")
        events.wait_for(lambda line: "switch tablet-mode state 1" in line, what="libinput: the switch on")
        monitor.wait_for(lambda line: line.get("tablet-mode") is False, timeout=PATIENCE * 2,
                         what="tablet mode off, opened again")
        events.wait_for(lambda line: "switch tablet-mode state 0" in line, what="libinput: the switch off")
        monitor.wait_for(lambda line: line.get("posture") == "laptop", what="a laptop again")
        # sway's bindswitch ran its command for each: a desktop acts on the switch with no change of its own.
        wait_for(lambda: sway.ran("on") and sway.ran("off"), what=f"sway's bindswitch commands: {sway.log}")
        self.assertLess(sway.ran("on"), sway.ran("off"), "on when folded, then off when opened")
        # What desktops act on: the switch turned on once and off once, never flapping.
        toggles = [line for line in events.lines if "switch tablet-mode state" in line]
        self.assertEqual(len(toggles), 2, toggles)
        # The postures classify finds in the trace, in order (each event repeats the posture: runs of one): folded
        # through tent and stand into a tablet, and opened back the same way.
        postures = [line["posture"] for line in monitor.lines if line.get("posture") not in (None, "unknown")]
        runs = [posture for index, posture in enumerate(postures) if index == 0 or postures[index - 1] != posture]
        self.assertEqual(runs[:4], ["laptop", "tent", "stand", "tablet"], postures)
        self.assertEqual(runs[-4:], ["tablet", "stand", "tent", "laptop"], postures)
        # Once in 6 full runs (in CI, before a base reading was paired by time), a tablet turning in the hand read as
        # a tent for 8 events and as a tablet again, tablet mode staying on: a scan read late met a base read later
        # (docs/development/testing.md). Such an excursion is printed, and may only be a tent.
        excursions = runs[4:-4]
        if excursions:
            print(f"\n    within the tablet: {excursions}", flush=True)
        self.assertTrue(set(excursions) <= {"tent", "tablet"}, postures)

    def test_a_machine_with_its_own_switch_gets_none_from_orientd(self):
        # The machine's own switch (as intel-vbtn makes one), there before orientd starts, and then gone.
        machine = MachineSwitch("Intel Virtual Buttons")
        self.addCleanup(machine.close)
        node = event_node(wait_for(lambda: input_device("Intel Virtual Buttons"), what="the machine's switch"))
        keeper = Keeper()
        self.addCleanup(keeper.stop)
        monitor = Monitor()
        self.addCleanup(monitor.close)
        monitor.wait_for(lambda line: line.get("posture") == "laptop", what="a laptop, from both sensors")
        wait_for(lambda: f"tablet-mode switch: off (the machine has its own: Intel Virtual Buttons ({node}))"
                 in self.service.log, what="orientd to say why it wants no switch")
        self.assertIsNone(input_device(NAME), "no second switch beside the machine's")
        machine.close()
        wait_for(lambda: input_device(NAME), what="orientd's switch, once the machine's is gone")
        self.assertIn("tablet-mode switch: on (display and base accelerometers", self.service.log)


class Sway:
    """A real sway (Debian's), headless but reading input through libinput (WLR_BACKENDS=headless,libinput, seat
    through libseat's noop backend), as user nobody (sway refuses root), with `bindswitch tablet:on` and `tablet:off`
    each touching a file. nobody may open the switch's event node (an ACL entry), as a seat's user may."""

    def __init__(self, node):
        self.folder = pathlib.Path("/run/orientd-tests/sway")
        self.folder.mkdir(parents=True, exist_ok=True)
        nobody = pwd.getpwnam("nobody")
        os.chown(self.folder, nobody.pw_uid, nobody.pw_gid)
        os.chmod(self.folder, 0o700)
        config = self.folder / "config"
        config.write_text("output HEADLESS-1 resolution 800x600\n"
                          f"bindswitch tablet:on exec touch {self.folder}/on\n"
                          f"bindswitch tablet:off exec touch {self.folder}/off\n")
        subprocess.run(["setfacl", "-m", "u:nobody:rw", str(node)], check=True, timeout=PATIENCE)
        environment = {"PATH": "/usr/bin:/bin", "HOME": str(self.folder), "XDG_RUNTIME_DIR": str(self.folder),
                       "WLR_BACKENDS": "headless,libinput", "WLR_RENDERER": "pixman", "LIBSEAT_BACKEND": "builtin",
                       "SEATD_VTBOUND": "0"}
        self.log_path = self.folder / "sway.log"
        with open(self.log_path, "w") as log:
            self.process = subprocess.Popen(
                ["setpriv", f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}", "--clear-groups",
                 "sway", "-d", "-c", str(config)], env=environment, stdout=log, stderr=subprocess.STDOUT)
        # Ready once its IPC socket is there.
        try:
            wait_for(lambda: list(self.folder.glob("sway-ipc.*.sock")) or self.process.poll() is not None,
                     what="sway to start")
        finally:
            if not list(self.folder.glob("sway-ipc.*.sock")):
                raise AssertionError(f"sway did not start (status {self.process.poll()}): {self.log[-3000:]}")

    def ran(self, state):
        """When the command for `state` ran (its file's time), or None."""
        path = self.folder / state
        return path.stat().st_mtime_ns if path.exists() else None

    @property
    def log(self):
        return self.log_path.read_text() if self.log_path.exists() else ""

    def close(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=PATIENCE)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class MachineSwitch:
    """An input device reporting SW_TABLET_MODE, made through uinput as a firmware driver's would be."""
    UI_SET_EVBIT, UI_SET_SWBIT, UI_DEV_SETUP, UI_DEV_CREATE = 0x40045564, 0x4004556D, 0x405C5503, 0x5501
    EV_SW, SW_TABLET_MODE = 5, 1

    def __init__(self, name):
        self.fd = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK)
        fcntl.ioctl(self.fd, self.UI_SET_EVBIT, self.EV_SW)
        fcntl.ioctl(self.fd, self.UI_SET_SWBIT, self.SW_TABLET_MODE)
        # struct uinput_setup: input_id (bus, vendor, product, version), name[80], ff_effects_max.
        fcntl.ioctl(self.fd, self.UI_DEV_SETUP, struct.pack("HHHH80sI", 0x19, 0, 0, 0, name.encode(), 0))
        fcntl.ioctl(self.fd, self.UI_DEV_CREATE)

    def close(self):
        if self.fd is not None:
            os.close(self.fd)  # the kernel removes the device with its last descriptor
            self.fd = None


if __name__ == "__main__":
    unittest.main()
