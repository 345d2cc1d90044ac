"""Debian's iio-sensor-proxy beside orientd in the same guest, on the same emulated HID hub and the kernel's own
hid-sensor-accel-3d: both see the same uevents, and each is timed on the same turns and measured over the same still
minute, through the same D-Bus client (iio-sensor-proxy's monitor-sensor). BENCHMARKS.md has the figures.

iio-sensor-proxy (the package's daemon, run here only) gets a private bus of its own, since orientd owns its name on
the system bus. An IIO device's buffer opens for one process at a time, so the two are timed one after the other on
the hub, never at once: each alone is how a machine runs it. ORIENTD_KERNEL_STILL sets the still window (60 s)."""
import math
import os
import random
import statistics
import subprocess
import sys
import threading
import time
import unittest

from guest import PATIENCE, REPO, Fixture, KernelTestCase, orientctl, settle, wait_for

sys.path.insert(0, str(REPO / "Benchmarks" / "Scripts"))
import process_figures  # noqa: E402

STILL = float(os.environ.get("ORIENTD_KERNEL_STILL", "60"))
TURNS = 8
G = 9.81
# monitor-sensor's names for the accelerometer at 0° and turned 90° (left edge up).
NAMES = {0: "normal", 90: "left-up"}


def tilted(degrees):
    """An upright device turned `degrees` about the axis through the screen, in m/s² (x, y, z)."""
    radians = math.radians(degrees)
    return [round(G * math.sin(radians), 5), round(-G * math.cos(radians), 5), 0.0]


class PrivateBusPeer:
    """iio-sensor-proxy on a dbus-daemon of its own, taken for its system bus."""

    def __init__(self, debug):
        self.bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                                    stdout=subprocess.PIPE, text=True)
        self.address = self.bus.stdout.readline().strip()
        self.log_path = "/run/orientd-tests/iio-sensor-proxy.log"
        # With `debug`, its debug lines (which driver it took, each empty poll of its buffer) go to the log: not while
        # it is measured, as a line every 700 ms costs it CPU that orientd, logging at info, does not spend.
        environment = dict(self.environment, G_MESSAGES_DEBUG="all") if debug else self.environment
        with open(self.log_path, "a") as log:
            self.process = subprocess.Popen(["/usr/sbin/iio-sensor-proxy"], stdout=log, stderr=subprocess.STDOUT,
                                            env=environment)
        self.pid = self.process.pid

    @property
    def environment(self):
        return dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=self.address)

    def has_accelerometer(self):
        return has_accelerometer(f"--address={self.address}")

    @property
    def log(self):
        with open(self.log_path) as f:
            return f.read()

    def stop(self):
        for process in (self.process, self.bus):
            process.terminate()
            process.wait()
        self.bus.stdout.close()


def has_accelerometer(bus):
    """HasAccelerometer as the daemon on `bus` (a busctl option) says it, or None while it has no answer."""
    answer = subprocess.run(["busctl", bus, "get-property", "net.hadess.SensorProxy", "/net/hadess/SensorProxy",
                             "net.hadess.SensorProxy", "HasAccelerometer"], capture_output=True, text=True)
    return {"b true": True, "b false": False}.get(answer.stdout.strip())


class Claimant:
    """monitor-sensor claiming the accelerometer, each orientation it prints kept with the moment it came."""

    def __init__(self, environment=None):
        self.process = subprocess.Popen(["stdbuf", "-oL", "monitor-sensor", "--accel"], stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True, env=environment)
        self.heard = []
        self.text = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.text.append(line.rstrip())
            # "=== Has accelerometer (orientation: normal)" at the claim, "orientation changed: left-up" after.
            for marker, end in (("orientation changed: ", None), ("(orientation: ", ")")):
                if marker in line:
                    self.heard.append((time.monotonic(), line.split(marker, 1)[1].strip().rstrip(")")))

    def first(self, name, since, timeout=3.0):
        """When `name` was first heard at or after `since`, waiting up to `timeout` s for it; None if not."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for stamp, heard in list(self.heard):
                if stamp >= since and heard == name:
                    return stamp
            time.sleep(0.005)
        return None

    def close(self):
        self.process.terminate()
        self.process.wait()
        self.process.stdout.close()


class SideBySideTests(KernelTestCase):
    def setUp(self):
        super().setUp()
        self.hub = Fixture("hid_hub.py", "--sensors", "accel")
        self.addCleanup(self.hub.close)
        self.hub.request({"set": "accel", "values": tilted(0)})
        self.hub.request({"devices": True})
        settle()

    def start_peer(self, debug=True):
        peer = PrivateBusPeer(debug)
        self.addCleanup(peer.stop)
        return peer

    def test_both_daemons_see_the_same_uevents(self):
        """The hub unplugged and plugged back while both run, unclaimed: each says so on its own bus. A second
        hub's light sensor stays, as iio-sensor-proxy ends when its last sensor goes."""
        light = Fixture("hid_hub.py", "--sensors", "als", "--product", "0x0A15", log_name="light_hub.log")
        self.addCleanup(light.close)
        light.request({"devices": True})
        settle()
        # The first connection to the socket starts the service (no systemd in the guest to start it for D-Bus).
        orientctl("status")
        peer = self.start_peer()

        def both_say(expected):
            wait_for(lambda: has_accelerometer("--system") is expected, what=f"orientd: HasAccelerometer {expected}")
            wait_for(lambda: peer.has_accelerometer() is expected,
                     what=f"iio-sensor-proxy: HasAccelerometer {expected}; its log:\n{peer.log}")
        both_say(True)
        self.hub.request({"unplug": True})
        both_say(False)
        self.hub.request({"plug": True})
        self.hub.request({"set": "accel", "values": tilted(0)})
        settle()
        both_say(True)

    def test_a_turn_and_a_still_minute_each(self):
        """Each daemon alone on the hub, claimed by monitor-sensor: a still minute (the hub sends nothing, as a
        still device's hub does), then turns done as a hand does them and instantaneous ones. orientd must answer
        every turn; the figures of both are printed, with their ratios."""
        orientctl("status")
        figures = {"orientd": self.measure("orientd", lambda: self.service.pid, None, lambda: "")}
        self.service.stop()
        # As at a boot: the sensor powered off (the driver's autosuspend, 3 s after its last user) before the next
        # daemon opens it, so that the hub sends its first reading at power-on to each alike.
        wait_for(lambda: self.hub.request({"state": "accel"})["power"] == "D4 power off", what="the sensor powered off")
        peer = self.start_peer(debug=False)
        figures["iio-sensor-proxy"] = self.measure("iio-sensor-proxy", lambda: peer.pid, peer.environment,
                                                    lambda: f"\niio-sensor-proxy's log:\n{peer.log}")
        self.report(figures)
        self.assertEqual(figures["orientd"]["missed"], 0, figures["orientd"])
        # Scans read after a held reading went out, stamped just before it, once took time back.
        self.assertNotIn("sample refused", self.service.log)

    def measure(self, label, pid, environment, log):
        claimant = Claimant(environment)
        self.addCleanup(claimant.close)
        self.assertIsNotNone(claimant.first(NAMES[0], 0, timeout=PATIENCE),
                             f"{label}: monitor-sensor's first reading; it printed {claimant.text}{log()}")
        # One change served before anything is measured: a turn and back.
        for angle in (90, 0):
            since = time.monotonic()
            self.hub.request({"set": "accel", "values": tilted(angle)})
            self.assertIsNotNone(claimant.first(NAMES[angle], since, timeout=PATIENCE),
                                 f"{label}: turned to {angle}°; monitor-sensor printed {claimant.text}{log()}")
            time.sleep(1)
        cpu, woke, memory, on_cpu = process_figures.still({label: pid()}, STILL)[label]
        hand, hand_missed = self.turns(claimant, gradual=True)
        jump, jump_missed = self.turns(claimant, gradual=False)
        claimant.close()
        return {"cpu": cpu, "woke": woke, "on_cpu": on_cpu, "rss": memory["Rss"], "hand": hand, "jump": jump,
                "missed": hand_missed + jump_missed}

    def turns(self, claimant, gradual):
        """The median reaction in ms to TURNS turns between 0° and 90°, from the moment the turn ends to
        monitor-sensor's line (a commit inside the turn's last 0.6 s is a negative reaction), each after 1 to 2.5 s
        of rest; and how many turns were not heard within 3 s."""
        reactions, missed, angle = [], 0, 0
        rng = random.Random(7)
        for _ in range(TURNS):
            target = 90 - angle
            if gradual:
                for step in range(1, 26):  # 0.5 s in 20 ms steps
                    self.hub.request({"set": "accel", "values": tilted(angle + (target - angle) * step / 25)})
                    time.sleep(0.02)
            else:
                self.hub.request({"set": "accel", "values": tilted(target)})
            ended = time.monotonic()
            heard = claimant.first(NAMES[target], ended - 0.6)
            if heard is None:
                missed += 1
            else:
                reactions.append(1000 * (heard - ended))
            angle = target
            time.sleep(rng.uniform(1.0, 2.5))
        return (statistics.median(reactions) if reactions else float("nan")), missed

    def report(self, figures):
        print(f"\n    {'':17} {'CPU %':>6} {'CPU µs/s':>9} {'ctx sw/s':>9} {'Rss MB':>7} {'hand turn ms':>13} "
              f"{'instant ms':>11} {'missed':>7}")
        for label, f in figures.items():
            print(f"    {label:17} {f['cpu']:6.3f} {f['on_cpu']:9.0f} {f['woke']:9.2f} {f['rss']:7.1f} "
                  f"{f['hand']:13.0f} {f['jump']:11.0f} {f['missed']:7d}")
        ours, theirs = figures["orientd"], figures["iio-sensor-proxy"]

        def ratio(key):
            return f"{ours[key] / theirs[key]:.2f}" if theirs[key] else "n/a"
        print(f"    orientd / iio-sensor-proxy: CPU µs/s {ratio('on_cpu')}, context switches {ratio('woke')}, "
              f"instant turn {ratio('jump')} (still {STILL:g} s each, {TURNS} turns of each kind)", flush=True)


if __name__ == "__main__":
    unittest.main()
