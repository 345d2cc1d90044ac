"""A HID sensor hub's accelerometer through the kernel's own hid-sensor-hub and hid-sensor-accel-3d, as most Intel
and AMD convertibles present theirs: buffered capture with the driver's own trigger, the rates orientd asks for
arriving at the hub, a hub that reports only on change (a still device sends nothing, which is not a stall), and
one that does stall."""
import pathlib
import time
import unittest

from guest import PATIENCE, Fixture, KernelTestCase, Monitor, settle, status, wait_for
from test_drivers import POSES, write_poses_trace


class HubTestCase(KernelTestCase):
    """A hub with an accelerometer alone, held upright, reporting on change as real hubs do."""

    hub_options = ()

    def setUp(self):
        super().setUp()
        self.hub = Fixture("hid_hub.py", "--sensors", "accel", *self.hub_options)
        self.addCleanup(self.hub.close)
        self.hub.request({"set": "accel", "values": list(POSES[0][1])})
        self.iio = self.hub.request({"devices": True})["sensors"]["accel"]
        settle()

    def subscribe(self):
        monitor = Monitor()
        self.addCleanup(monitor.close)
        monitor.wait_for(lambda line: line.get("device") == POSES[0][0], what="upright")
        return monitor

    def hub_state(self):
        return self.hub.request({"state": "accel"})


class HIDAccelerometerTests(HubTestCase):
    def test_a_trace_through_the_hub_reads_as_its_poses(self):
        monitor = self.subscribe()
        sensor = status()["sensor"]
        self.assertEqual(sensor["id"], self.iio["iio"].rsplit("/", 1)[-1], sensor)
        self.assertEqual(sensor["mode"], "buffered", sensor)
        trace = write_poses_trace(pathlib.Path("/run/orientd-tests/poses.trace"))
        self.hub.request({"play": trace})
        for name, _ in POSES[1:]:
            monitor.wait_for(lambda line, name=name: line.get("device") == name, what=name)
        devices = [line["device"] for line in monitor.lines if line.get("device") not in (None, "unknown")]
        self.assertEqual([name for index, name in enumerate(devices) if index == 0 or devices[index - 1] != name],
                         [name for name, _ in POSES], devices)

    def test_the_rates_orientd_asks_for_reach_the_hub(self):
        """50 Hz while it moves, the still rate (5 Hz) once still for a second, the rest rate (2 Hz) once still for
        10 s, and 50 Hz again at the first move: each as the report interval the hub is set to."""
        self.subscribe()
        intervals = []

        def interval_is(milliseconds):
            intervals.append(self.hub_state()["interval_ms"])
            return intervals[-1] == milliseconds

        wait_for(lambda: interval_is(200), timeout=PATIENCE, interval=0.5, what=f"5 Hz (200 ms); saw {intervals}")
        wait_for(lambda: interval_is(500), timeout=PATIENCE, interval=0.5, what=f"2 Hz (500 ms); saw {intervals}")
        self.hub.request({"set": "accel", "values": list(POSES[1][1])})
        wait_for(lambda: interval_is(20), timeout=PATIENCE, interval=0.2, what=f"50 Hz (20 ms); saw {intervals}")


class ChangeOnlyHubTests(HubTestCase):
    """A hub that sends a reading only when it changes: held still, nothing comes, and that is not a stall."""

    # How long the device is held still: past the 2 s after which a silent buffer is checked, several times over.
    STILL = 12.0

    def test_a_still_device_stays_buffered_and_costs_few_reads(self):
        self.subscribe()
        before = self.hub_state()
        time.sleep(self.STILL)
        after = self.hub_state()
        log = self.service.log
        self.assertNotIn("polling instead", log)
        self.assertNotIn("opening it again", log)
        self.assertEqual(status()["sensor"]["mode"], "buffered")
        # A still device's raw attributes (x, y and z: three GET_REPORTs) are read after 2 s of silence, after 4 s
        # more, then every 8 s (BufferSilence): twice in 12 s, three times if the window starts just before one.
        asked = after["get_reports"]["input"] - before["get_reports"]["input"]
        self.assertGreaterEqual(asked, 3, (before, after))
        self.assertLessEqual(asked, 9, (before, after))
        print(f"\n    held still {self.STILL:.0f} s: {asked} GET_REPORTs, {after['reports_sent'] - before['reports_sent']}"
              " input reports from the hub", flush=True)

    def test_a_stalled_hub_is_read_and_the_turn_published(self):
        monitor = self.subscribe()
        self.hub.request({"stall": True})
        self.hub.request({"set": "accel", "values": list(POSES[1][1])})
        started = time.monotonic()
        monitor.wait_for(lambda line: line.get("device") == POSES[1][0], timeout=PATIENCE,
                         what="the turn, read from the stalled hub")
        took = time.monotonic() - started
        self.assertIn("while the sensor moved", self.service.log)
        self.assertIn("polling instead", self.service.log)
        self.assertEqual(status()["sensor"]["mode"], "polled")
        # The first silence check comes 2 s after the last reading (BufferSilence); under emulation, allow as much
        # again for the read and the classifier's settling.
        self.assertLess(took, 6.0)
        print(f"\n    the turn was published {took:.1f} s after the hub stalled", flush=True)


class ChangeOnlyLightTests(KernelTestCase):
    """The hub's light sensor reports only on change too: a steady room sends nothing, which is not a stall, but a
    room that changed while the buffer said nothing must still be published."""

    settings = "light-threshold = 0"
    STEADY = 12.0

    def setUp(self):
        super().setUp()
        self.hub = Fixture("hid_hub.py", "--sensors", "als")
        self.addCleanup(self.hub.close)
        self.hub.request({"set": "als", "lux": 120})
        self.hub.request({"devices": True})
        settle()
        self.monitor = Monitor("--light")
        self.addCleanup(self.monitor.close)
        self.monitor.wait_for(lambda line: line.get("event") == "light" and line.get("level") == 120, what="120 lux")

    def test_a_steady_room_stays_buffered_and_costs_few_reads(self):
        before = self.hub.request({"state": "als"})
        time.sleep(self.STEADY)
        after = self.hub.request({"state": "als"})
        self.assertNotIn("instead", self.service.log)
        # One raw read (one GET_REPORT) after 2 s of silence, 4 s more, then every 8 s: two or three in 12 s.
        asked = after["get_reports"]["input"] - before["get_reports"]["input"]
        self.assertLessEqual(asked, 3, (before, after))
        print(f"\n    a steady room {self.STEADY:.0f} s: {asked} GET_REPORTs", flush=True)

    def test_a_room_that_changed_under_a_stalled_hub_is_published(self):
        self.hub.request({"stall": True})
        self.hub.request({"set": "als", "lux": 400})
        started = time.monotonic()
        self.monitor.wait_for(lambda line: line.get("event") == "light" and line.get("level") == 400,
                              what="400 lux, read from the stalled hub")
        took = time.monotonic() - started
        self.assertIn("reading it instead", self.service.log)
        self.assertLess(took, 6.0)
        print(f"\n    the new level was published {took:.1f} s after the hub stalled", flush=True)


if __name__ == "__main__":
    unittest.main()
