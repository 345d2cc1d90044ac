"""Back from sleep: the whole guest is put to sleep (ACPI S3, `rtcwake -m mem`) and woken by the RTC's alarm, so
every driver's own suspend and resume callbacks run, the HID sensor hub's and its IIO sensors' included. Every claimed
kind must come back, on the socket and on D-Bus, with no restart: once with logind's PrepareForSleep around the
sleep (python-dbusmock's logind template on the guest's system bus), as systemd-logind sends it, and once with no
word from anyone, as after a plain `echo mem > /sys/power/state`.

These run only in the guest whose root is a disk (scripts/test-kernel.sh boots it from
scripts/kernel-root-image.sh's image): the other guest's root is virtio 9p, whose driver has no suspend callbacks, so
after a resume every file read hangs. Nothing read after the sleep is on 9p: the tests run from a copy in memory
(guest_main.sh), and the modules they need are loaded, and the module index copied to memory, before it. S3 rather than suspend-to-idle (`-m freeze`): under qemu's
emulation the RTC's alarm never wakes a guest from suspend-to-idle. Both run the same suspend and resume callbacks of
the drivers.

While the guest sleeps the hub program is frozen, as every process is, and cannot answer the kernel: the drivers'
suspend callbacks each wait out uhid's 5 s for an answer to the SET_REPORT that powers the sensor off, and the hub
reads it only after the resume. A real hub answers at once. So a suspend takes about 15 s per powered sensor here."""
import pathlib
import subprocess
import unittest

from guest import PATIENCE, Fixture, KernelTestCase, Monitor, MonitorSensor, settle, wait_for
from test_drivers import POSES

# When the RTC's alarm wakes the guest, counted from the start of the suspend. The drivers' suspend callbacks take about
# 31 s here (uhid's 5 s timeouts, the hub being frozen, above); an alarm that went off before the guest reached S3
# would never wake it.
SLEEP_SECONDS = 50
SUCCESSFUL_SLEEPS = pathlib.Path("/sys/power/suspend_stats/success")


def prepare_for_sleep(sleeping):
    """logind's PrepareForSleep(sleeping), sent by the mock's EmitSignal(interface, name, signature, arguments)."""
    subprocess.run(
        ["busctl", "--system", "call", "org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.DBus.Mock",
         "EmitSignal", "sssav", "org.freedesktop.login1.Manager", "PrepareForSleep", "b", "1", "b",
         "true" if sleeping else "false"],
        check=True, capture_output=True, timeout=PATIENCE)


def suspend_and_wake():
    """The guest to sleep for SLEEP_SECONDS, back when the RTC's alarm wakes it; fails unless the kernel counts one
    more successful suspend."""
    before = int(SUCCESSFUL_SLEEPS.read_text())
    result = subprocess.run(["rtcwake", "-m", "mem", "-s", str(SLEEP_SECONDS)], capture_output=True, text=True,
                            timeout=SLEEP_SECONDS + PATIENCE * 3)
    if result.returncode != 0:
        raise AssertionError(f"rtcwake -m mem: {result.returncode}: {result.stderr.strip()}")
    after = int(SUCCESSFUL_SLEEPS.read_text())
    if after != before + 1:
        raise AssertionError(f"the kernel counted {after - before} suspends, not one")


class SleepTestCase(KernelTestCase):
    """An accelerometer and a light sensor on one HID hub, read upright at 80 lux, by a socket client and by
    iio-sensor-proxy's client on D-Bus."""

    settings = "light-threshold = 0"
    SENSORS = ("accel", "als")

    def setUp(self):
        super().setUp()
        self.hub = Fixture("hid_hub.py", "--sensors", ",".join(self.SENSORS))
        self.addCleanup(self.hub.close)
        self.hub.request({"set": "accel", "values": list(POSES[0][1])})
        self.hub.request({"set": "als", "lux": 80})
        self.hub.request({"devices": True})
        settle()
        self.monitor = Monitor("--light")
        self.addCleanup(self.monitor.close)
        self.claimant = MonitorSensor()
        self.addCleanup(self.claimant.close)
        self.monitor.wait_for(lambda line: line.get("device") == "portrait", what="upright")
        self.monitor.wait_for(lambda line: line.get("event") == "light" and line.get("level") == 80, what="80 lux",
                              since=0)
        self.claimant.wait_for(lambda line: "normal" in line, what="monitor-sensor's first orientation")
        self.daemon = self.service.pid

    def assert_every_kind_reads_again(self):
        """Turned and at 300 lux, as the hub reads after the resume: on the socket and on D-Bus, by the same daemon;
        and the hub's sensors were powered off for the sleep and on again, by the drivers' own callbacks."""
        after = len(self.monitor.lines)
        self.hub.request({"set": "accel", "values": list(POSES[1][1])})
        self.hub.request({"set": "als", "lux": 300})
        self.monitor.wait_for(lambda line: line.get("device") == POSES[1][0], what="turned, after the resume",
                              since=after)
        self.monitor.wait_for(lambda line: line.get("event") == "light" and line.get("level") == 300,
                              what="300 lux, after the resume", since=after)
        self.claimant.wait_for(lambda line: "Accelerometer orientation changed: left-up" in line,
                               what="monitor-sensor: turned, after the resume")
        self.assertEqual(self.service.pid, self.daemon, "no restart")
        for sensor in self.SENSORS:
            state = self.hub.request({"state": sensor})
            since_sleep = state["set_reports"] - self.set_reports_before_sleep[sensor]
            powers = [entry["power"] for entry in list(state["log"])[-since_sleep:]] if since_sleep else []
            self.assertIn("D4 power off", powers, f"{sensor}: powered off for the sleep")
            self.assertEqual(state["power"], "D0 full power", f"{sensor}: powered again after it")

    def sleep_the_guest(self):
        """suspend_and_wake(), noting first how many SET_REPORTs each sensor had."""
        self.set_reports_before_sleep = {sensor: self.hub.request({"state": sensor})["set_reports"]
                                         for sensor in self.SENSORS}
        suspend_and_wake()


class SleepTests(SleepTestCase):
    def setUp(self):
        # logind, before the daemon starts, so that its bus connection follows it from the first.
        self.logind = subprocess.Popen(["python3", "-m", "dbusmock", "--system", "--template", "logind"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.addCleanup(self.logind.wait)
        self.addCleanup(self.logind.terminate)
        wait_for(lambda: subprocess.run(["busctl", "--system", "status", "org.freedesktop.login1"],
                                        capture_output=True).returncode == 0, what="python-dbusmock's logind")
        super().setUp()

    def test_every_claimed_kind_comes_back_after_a_sleep_logind_announced(self):
        prepare_for_sleep(True)
        wait_for(lambda: "the machine goes to sleep" in self.service.log, what="the daemon to hear logind")
        self.sleep_the_guest()
        prepare_for_sleep(False)
        wait_for(lambda: self.service.log.count("resumed from sleep: opening") >= 2,
                 what="the accelerometer and the light sensor opened again")
        self.assert_every_kind_reads_again()


class UnannouncedSleepTests(SleepTestCase):
    def test_every_claimed_kind_comes_back_after_a_sleep_nobody_announced(self):
        self.sleep_the_guest()
        self.assert_every_kind_reads_again()


if __name__ == "__main__":
    unittest.main()
