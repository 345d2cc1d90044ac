"""Back from sleep: logind says PrepareForSleep (python-dbusmock's logind template on the guest's system bus), and
every claimed kind of sensor on the kernel's HID drivers is opened again and read, with no restart.

The guest itself is not put to sleep: under virtme-ng its root is the host's files over 9p, and a guest suspended with
`rtcwake -m freeze` (or `/sys/power/pm_test` = devices) never comes back from it (tried on 6.1.0-57, with and without
qemu's microvm machine), so the drivers' own suspend and resume callbacks are not exercised here."""
import subprocess
import unittest

from guest import PATIENCE, Fixture, KernelTestCase, Monitor, MonitorSensor, settle, wait_for
from test_drivers import POSES

def prepare_for_sleep(sleeping):
    """logind's PrepareForSleep(sleeping), sent by the mock's EmitSignal(interface, name, signature, arguments)."""
    subprocess.run(
        ["busctl", "--system", "call", "org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.DBus.Mock",
         "EmitSignal", "sssav", "org.freedesktop.login1.Manager", "PrepareForSleep", "b", "1", "b",
         "true" if sleeping else "false"],
        check=True, capture_output=True, timeout=PATIENCE)


class ResumeTests(KernelTestCase):
    settings = "light-threshold = 0"

    def setUp(self):
        # logind, before the daemon starts, so that its bus connection follows it from the first.
        self.logind = subprocess.Popen(["python3", "-m", "dbusmock", "--system", "--template", "logind"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.addCleanup(self.logind.wait)
        self.addCleanup(self.logind.terminate)
        wait_for(lambda: subprocess.run(["busctl", "--system", "status", "org.freedesktop.login1"],
                                        capture_output=True).returncode == 0, what="python-dbusmock's logind")
        super().setUp()
        self.hub = Fixture("hid_hub.py", "--sensors", "accel,als")
        self.addCleanup(self.hub.close)
        self.hub.request({"set": "accel", "values": list(POSES[0][1])})
        self.hub.request({"set": "als", "lux": 80})
        self.hub.request({"devices": True})
        settle()

    def test_every_claimed_kind_comes_back_after_a_resume(self):
        monitor = Monitor("--light")
        self.addCleanup(monitor.close)
        claimant = MonitorSensor()
        self.addCleanup(claimant.close)
        monitor.wait_for(lambda line: line.get("device") == "portrait", what="upright")
        monitor.wait_for(lambda line: line.get("event") == "light" and line.get("level") == 80, what="80 lux", since=0)
        claimant.wait_for(lambda line: "normal" in line, what="monitor-sensor's first orientation")
        daemon = self.service.daemon_pid
        prepare_for_sleep(True)
        wait_for(lambda: "the machine goes to sleep" in self.service.log, what="the daemon to hear logind")
        prepare_for_sleep(False)
        wait_for(lambda: self.service.log.count("resumed from sleep: opening") >= 2,
                 what="the accelerometer and the light sensor opened again")
        # Read again after the resume, as the hub reads now.
        after = len(monitor.lines)
        self.hub.request({"set": "accel", "values": list(POSES[1][1])})
        self.hub.request({"set": "als", "lux": 300})
        monitor.wait_for(lambda line: line.get("device") == POSES[1][0], what="turned, after the resume", since=after)
        monitor.wait_for(lambda line: line.get("event") == "light" and line.get("level") == 300, what="300 lux",
                         since=after)
        claimant.wait_for(lambda line: "Accelerometer orientation changed: left-up" in line,
                          what="monitor-sensor: turned, after the resume")
        self.assertEqual(self.service.daemon_pid, daemon, "no restart")


if __name__ == "__main__":
    unittest.main()
