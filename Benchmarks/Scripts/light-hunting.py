#!/usr/bin/python3
"""Brightness hunting: orientd and iio-sensor-proxy side by side on one noisy emulated ambient light sensor.

Usage: light-hunting.py ORIENTD [--steady S] [--steps N] [--seed N] [--orientd-arg ARG ...]

One polled IIO light sensor (umockdev, tagged iio-poll-als, no integration time: both daemons read it every
0.8 s) beside an accelerometer. Its level is rewritten every 50 ms, as the room would vary it:
  - for S seconds, 300 lux with sensor noise (Gaussian, 2 %, read as whole lux) and the shadows of a typing
    hand: every 0.3 to 3 s (exponential, mean 1.2 s), a dip to 35-70 % of the level lasting 0.15 to 0.6 s;
  - then N steps, lights off (4 lux) and on again (300 lux) in turn, with the same noise and no shadows, each
    held 4 to 7 s (random, so that both pollers are met at every phase).
Each daemon gets a private dbus-daemon taken for its system bus and is claimed there by iio-sensor-proxy's own
client, monitor-sensor --light, whose "Light changed" lines are timestamped as they come. iio-sensor-proxy is
Debian's (/usr/sbin/iio-sensor-proxy or /usr/libexec/iio-sensor-proxy); it is only run here, never shipped.

Prints, for each daemon: the changes of LightLevel published per minute over the steady part, and, per step,
the time from the step to the first level published within 30 % of the new one; then orientd's lag behind
iio-sensor-proxy on each step (median and largest).
"""
import argparse
import os
import random
import statistics
import threading
import time

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

from monitored_daemon import MonitoredDaemon, orientd_command, settle  # noqa: E402

ROOM = 300.0
DARK = 4.0
NOISE = 0.02
TICK = 0.05


def sensor_proxy_daemon():
    for path in ("/usr/libexec/iio-sensor-proxy", "/usr/sbin/iio-sensor-proxy"):
        if os.access(path, os.X_OK):
            return path
    raise SystemExit("needs iio-sensor-proxy's daemon (Debian's iio-sensor-proxy package)")


class Sensor:
    """The emulated accelerometer (both daemons want one) and light sensor; `level` is written every TICK."""

    def __init__(self, seed):
        self.testbed = UMockdev.Testbed.new()
        self.random = random.Random(seed)
        self.add("iio:device0", {"name": "accel_3d", "in_accel_x_raw": "0", "in_accel_y_raw": "-256",
                                 "in_accel_z_raw": "0", "in_accel_scale": "0.0383072"},
                 {"IIO_SENSOR_PROXY_TYPE": "iio-poll-accel", "ACCEL_LOCATION": "display"})
        self.light = self.add("iio:device1", {"name": "als", "in_illuminance_input": f"{ROOM:.0f}"},
                              {"IIO_SENSOR_PROXY_TYPE": "iio-poll-als"})
        self.level = ROOM
        self.shadow_until = 0.0
        self.shadow_depth = 1.0
        self.next_shadow = None  # None: no shadows
        self.stopping = False
        threading.Thread(target=self.run, daemon=True).start()

    def add(self, name, attributes, properties):
        # Sysfs values end in a newline: libiio drops the last character of what it reads.
        return self.testbed.add_device(
            "iio", name, None, [item for pair in attributes.items() for item in (pair[0], pair[1] + "\n")],
            [item for pair in properties.items() for item in pair])

    def environment(self):
        return dict(os.environ, LD_PRELOAD="libumockdev-preload.so.0", UMOCKDEV_DIR=self.testbed.get_root_dir())

    def shadows(self, on):
        self.next_shadow = time.monotonic() + self.random.expovariate(1 / 1.2) if on else None

    def steady(self, seconds):
        """The room at its level, with its shadows, for `seconds`; returns when that began and ended."""
        self.shadows(True)
        start = time.monotonic()
        time.sleep(seconds)
        end = time.monotonic()
        self.shadows(False)
        return start, end

    def run(self):
        while not self.stopping:
            now = time.monotonic()
            if self.next_shadow is not None and now >= self.next_shadow:
                self.shadow_until = now + self.random.uniform(0.15, 0.6)
                self.shadow_depth = self.random.uniform(0.35, 0.7)
                self.next_shadow = self.shadow_until + max(0.3, min(3, self.random.expovariate(1 / 1.2)))
            depth = self.shadow_depth if now < self.shadow_until else 1.0
            lux = max(0, round(self.level * depth * self.random.gauss(1, NOISE)))
            self.testbed.set_attribute(self.light, "in_illuminance_input", f"{lux}\n")
            time.sleep(TICK)


class Daemon(MonitoredDaemon):
    """A daemon whose light is claimed by monitor-sensor, each level published timestamped."""

    def __init__(self, label, command, sensor):
        super().__init__(label, command, sensor.environment(), ("--light",))

    def parse(self, line):
        return float(line.split(":", 1)[1].split()[0]) if "Light changed:" in line else None

    def count(self, start, end):
        return sum(1 for stamp, _ in self.changes if start <= stamp < end)

    def reached(self, target, since, until):
        """When the first level within 30 % of `target` was published in [since, until), else None."""
        for stamp, level in list(self.changes):
            if since <= stamp < until and abs(level - target) <= 0.3 * target:
                return stamp
        return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("orientd")
    parser.add_argument("--steady", type=float, default=120)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--orientd-arg", action="append", default=[])
    args = parser.parse_args()

    sensor = Sensor(args.seed)
    orientd = orientd_command(args.orientd, "light-hunting-", args.orientd_arg)
    daemons = [Daemon("iio-sensor-proxy", [sensor_proxy_daemon()], sensor), Daemon("orientd", orientd, sensor)]
    try:
        settle(daemons)
        start, end = sensor.steady(args.steady)
        time.sleep(2)

        steps = []  # (target, {label: seconds or None})
        for index in range(args.steps):
            target = DARK if index % 2 == 0 else ROOM
            hold = sensor.random.uniform(4, 7)
            sensor.level = target
            at = time.monotonic()
            time.sleep(hold)
            steps.append((target, {d.label: (lambda s: None if s is None else s - at)(d.reached(target, at, at + hold))
                                   for d in daemons}))
    finally:
        sensor.stopping = True
        for d in daemons:
            d.stop()

    minutes = (end - start) / 60
    print(f"steady {end - start:.0f} s (300 lux, 2 % noise, typing shadows), then {args.steps} steps 300 <-> 4 lux; "
          f"seed {args.seed}")
    print(f"{'':18} {'changes/min':>12} {'step reached, median s':>23} {'largest s':>10}")
    for d in daemons:
        times = [s[d.label] for _, s in steps if s[d.label] is not None]
        missed = sum(1 for _, s in steps if s[d.label] is None)
        print(f"{d.label:18} {d.count(start, end) / minutes:12.1f} {statistics.median(times):23.2f} {max(times):10.2f}"
              + (f"  ({missed} steps never reached)" if missed else ""))
    lags = [s["orientd"] - s["iio-sensor-proxy"] for _, s in steps if None not in s.values()]
    print(f"orientd behind iio-sensor-proxy, per step: median {statistics.median(lags):.2f} s, largest {max(lags):.2f} s "
          f"({', '.join(f'{lag:.2f}' for lag in lags)})")
    ratio = daemons[0].count(start, end) / max(1, daemons[1].count(start, end))
    print(f"iio-sensor-proxy published {ratio:.1f}x as many changes as orientd while steady")


if __name__ == "__main__":
    main()
