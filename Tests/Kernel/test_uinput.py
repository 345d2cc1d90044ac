"""The tablet-mode switch through the kernel's uinput: the device orientd-tablet-mode-switch makes, as its installed
unit runs it, becomes an input device that udev tags and libinput reads as a switch."""
import os
import pathlib
import subprocess
import unittest

from guest import PATIENCE, Keeper, KernelTestCase, wait_for

NAME = "orientd tablet mode switch"


def input_device(name):
    """The /sys/class/input/inputN whose name is `name`, or None."""
    for device in pathlib.Path("/sys/class/input").glob("input*"):
        if (device / "name").read_text().strip() == name:
            return device
    return None


def event_node(device):
    """The /dev/input/eventN of an input device."""
    events = sorted(device.glob("event*"))
    return pathlib.Path("/dev/input") / events[0].name if events else None


def udev_properties(node):
    output = subprocess.run(["udevadm", "info", "--query=property", f"--name={node}"], capture_output=True,
                            text=True, check=True).stdout
    return dict(line.split("=", 1) for line in output.splitlines() if "=" in line)


class TabletModeSwitchTests(KernelTestCase):
    # Forced on: this machine has no base accelerometer, which auto would need.
    settings = "tablet-mode-switch = yes"

    def test_the_switch_is_an_input_device_udev_tags_and_libinput_reads(self):
        # The keeper's connection starts orientd, which tells it "off": it makes the switch.
        keeper = Keeper()
        self.addCleanup(keeper.stop)
        device = wait_for(lambda: input_device(NAME), what=f"an input device named {NAME!r}")
        node = wait_for(lambda: event_node(device), what="its event node")
        wait_for(lambda: "ID_INPUT_SWITCH" in udev_properties(node), what="udev to tag it")
        properties = udev_properties(node)
        self.assertEqual(properties.get("ID_INPUT_SWITCH"), "1", properties)
        # Only SW_TABLET_MODE (bit 1) among the switches, and no key or relative axis: it can type nothing.
        self.assertEqual((device / "capabilities" / "sw").read_text().strip(), "2")
        self.assertEqual((device / "capabilities" / "key").read_text().strip(), "0")
        self.assertEqual((device / "capabilities" / "rel").read_text().strip(), "0")
        listed = subprocess.run(["libinput", "list-devices"], capture_output=True, text=True, timeout=PATIENCE).stdout
        block = next((b for b in listed.split("\n\n") if NAME in b), "")
        self.assertIn("switch", block.lower(), listed)
        self.assertIn(f"Kernel:           {node}", block, listed)
        # The daemon itself never holds /dev/uinput: only the keeper, as user orientd-switch.
        self.assertIn("tablet-mode switch: on (tablet-mode-switch = yes)", self.service.log)
        daemon = self.service.pid
        held = [os.readlink(f"/proc/{daemon}/fd/{fd}") for fd in os.listdir(f"/proc/{daemon}/fd")]
        self.assertNotIn("/dev/uinput", held)
        # The keeper's seccomp filter is on (2: a filter), so it could make no other device than this switch.
        status = pathlib.Path(f"/proc/{keeper.pid}/status").read_text()
        self.assertIn("Seccomp:\t2\n", status)
        self.assertIn("NoNewPrivs:\t1\n", status)
        self.assertNotIn("seccomp filter on uinput requests", keeper.log)
        keeper.stop()
        wait_for(lambda: input_device(NAME) is None, what="the switch removed with its keeper")


if __name__ == "__main__":
    unittest.main()
