"""Every driver the kernel tier emulates hardware for is found by orientd, scaled and read right: the same trace of
three poses (upright, turned with its left edge up, flat on its back) played through each one's registers gives
the same three orientations, in order, to a socket client."""
import pathlib
import unittest

from guest import KernelTestCase, Fixture, Monitor, status

POSES = [("portrait", (0.0, -9.81, 0.0)), ("landscape-right", (9.81, 0.0, 0.0)), ("face-up", (0.0, 0.0, -9.81))]
# Each pose held this long: the classifier commits within a fraction of it, and a polled read under emulation can
# take tens of milliseconds.
HOLD = 3.0


def write_poses_trace(path):
    """A v1 trace of the poses, each held HOLD seconds (a line at its start and one at its end)."""
    lines = ["# orientd trace v1", "# source: Tests/Kernel/test_drivers.py", "t,x,y,z"]
    for index, (_, (x, y, z)) in enumerate(POSES):
        for t in (index * HOLD, index * HOLD + HOLD - 0.5):
            lines.append(f"{t:.3f},{x:.5f},{y:.5f},{z:.5f}")
    path.write_text("\n".join(lines) + "\n")
    return str(path)


class I2CAccelerometerTests(KernelTestCase):
    """Accelerometers of cheap tablets, bound to i2c-stub: polled, scaled by the driver's own in_accel_scale."""

    def setUp(self):
        super().setUp()
        self.parts = Fixture("i2c_sensors.py")
        self.addCleanup(self.parts.close)
        self.trace = write_poses_trace(pathlib.Path("/run/orientd-tests/poses.trace"))

    def follow_the_trace(self, part):
        added = self.parts.request({"add": part, "accel": list(POSES[0][1])})
        self.addCleanup(self.parts.request, {"remove": added["id"]})
        monitor = Monitor()
        self.addCleanup(monitor.close)
        # The socket client's subscription opens the sensor (sampling = on-demand).
        monitor.wait_for(lambda line: line.get("device") == POSES[0][0], what=f"{part} upright")
        self.parts.request({"play": self.trace, "device": added["id"]})
        seen = [POSES[0][0]]
        for name, _ in POSES[1:]:
            monitor.wait_for(lambda line, name=name: line.get("device") == name, what=f"{part}: {name}")
            seen.append(name)
        devices = [line["device"] for line in monitor.lines if line.get("device") not in (None, "unknown")]
        # No other orientation in between: each pose is read as itself, not through a wrong scale or axis.
        self.assertEqual([name for index, name in enumerate(devices) if index == 0 or devices[index - 1] != name],
                         [name for name, _ in POSES], devices)
        sensor = status()["sensor"]
        self.assertEqual(sensor["id"], added["id"], sensor)
        self.assertEqual(sensor["name"], added["name"], sensor)
        return sensor

    def test_kxcjk1013(self):
        self.follow_the_trace("kxcjk1013")

    def test_bmc150_accel(self):
        self.follow_the_trace("bmc150_accel")

    def test_mxc4005(self):
        self.follow_the_trace("mxc4005")


if __name__ == "__main__":
    unittest.main()
