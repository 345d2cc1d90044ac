"""Discovery and hotplug through the kernel's own uevents and udev's rules: a HID sensor hub found at start, plugged
after the start, unplugged while claimed and while idle, and not found again once removed."""
import os
import subprocess
import unittest

from guest import PATIENCE, Fixture, KernelTestCase, Monitor, MonitorSensor, get, settle, status, wait_for
from test_drivers import POSES


def upright():
    """A `get` answers portrait, within PATIENCE: each `get` waits a second for the sensor's first reading, and
    under emulation opening the hub's sensor can take longer (its raw attributes are asked of the hub, one request
    at a time). How fast a turn is published is measured in BENCHMARKS.md, not here."""
    wait_for(lambda: get()["device"] == "portrait", what="a get answering portrait")


class HotplugTests(KernelTestCase):
    """The service runs from the start of each test; the hub comes and goes under it."""

    def plug(self):
        hub = Fixture("hid_hub.py", "--sensors", "accel")
        self.addCleanup(hub.close)
        hub.request({"set": "accel", "values": list(POSES[0][1])})
        hub.request({"devices": True})
        settle()
        return hub

    def test_found_at_start(self):
        self.service.stop()
        self.plug()
        self.service.start()
        upright()
        sensor = status()["sensor"]
        self.assertEqual(sensor["name"], "accel_3d", sensor)

    def test_plugged_after_start(self):
        monitor = Monitor()
        self.addCleanup(monitor.close)
        monitor.wait_for(lambda line: line.get("sensor") == "none", what="no sensor at first")
        self.plug()
        monitor.wait_for(lambda line: line.get("sensor") == "available" and line.get("device") == "portrait",
                         what="the hub's accelerometer, upright")

    def test_unplugged_while_claimed_and_plugged_back(self):
        hub = self.plug()
        monitor = Monitor()
        self.addCleanup(monitor.close)
        claimant = MonitorSensor("--accel")
        self.addCleanup(claimant.close)
        # Its claim is answered once the sensor has read, or after 3 s: under emulation, opening the hub's sensor
        # can take longer, and the first reading then comes as a change.
        claimant.wait_for(lambda line: "=== Has accelerometer (orientation: normal)" in line
                          or "Accelerometer orientation changed: normal" in line, what="monitor-sensor's first reading")
        monitor.wait_for(lambda line: line.get("device") == "portrait", what="upright")
        hub.request({"unplug": True})
        monitor.wait_for(lambda line: line.get("sensor") in ("none", "unavailable"), what="the sensor gone")
        claimant.wait_for(lambda line: "Accelerometer disappeared" in line, what="monitor-sensor told it vanished")
        # Both clients stay; the claim is kept while the sensor is away and takes effect when it is back.
        hub.request({"plug": True})
        hub.request({"set": "accel", "values": list(POSES[1][1])})
        settle()
        monitor.wait_for(lambda line: line.get("sensor") == "available" and line.get("device") == POSES[1][0],
                         what="the hub back, turned")
        claimant.wait_for(lambda line: "Accelerometer orientation changed: left-up" in line,
                          what="monitor-sensor reading it again, turned")

    def test_a_sensor_udev_has_not_processed_waits_for_its_event(self):
        """A sensor whose udev database entry is not written yet (a machine booting, a sensor just plugged): until
        udev's rules have run, its location is unknown and its capture files are root's, so it is left alone, and
        its event brings it in."""
        hub = self.plug()
        iio = hub.request({"devices": True})["sensors"]["accel"]["iio"]
        # As before udev processed it: no database entry (the kernel's own uevent is all there is).
        node = os.stat("/dev/" + os.path.basename(iio)).st_rdev
        os.unlink(f"/run/udev/data/c{os.major(node)}:{os.minor(node)}")
        monitor = Monitor()
        self.addCleanup(monitor.close)
        wait_for(lambda: "no IIO accelerometer found" in self.service.log, what="the daemon to look, and take none")
        subprocess.run(["udevadm", "trigger", "--action=add", iio], check=True, timeout=PATIENCE)
        settle()
        monitor.wait_for(lambda line: line.get("sensor") == "available" and line.get("device") == "portrait",
                         what="the sensor once udev has processed it")
        self.assertEqual(status()["sensor"]["mode"], "buffered")

    def test_unplugged_while_idle_is_not_found_again(self):
        hub = self.plug()
        upright()
        hub.request({"unplug": True})
        settle()
        # Nobody listens: the daemon has the sensor closed; the next client finds none.
        states = []

        def gone():
            states.append(get())
            return states[-1]["sensor"] in ("none", "unavailable")

        wait_for(gone, what=f"no sensor after the unplug; get said {states[-3:]}")
        self.assertEqual(states[-1]["device"], "unknown", states[-1])
        self.assertNotEqual(status()["sensor"]["state"], "available")
        # The next opening looks for a sensor afresh, and the removed one is not among them (before the unplug, the
        # hub's was found).
        self.assertIn("no IIO accelerometer found", self.service.log)


if __name__ == "__main__":
    unittest.main()
