#!/usr/bin/python3
"""orientd and iio-sensor-proxy side by side on one emulated polled accelerometer (umockdev).

Usage: side-by-side.py ORIENTD [--still S] [--turns N] [--rested-turns N] [--rate HZ] [--light] [--orientd-arg ARG ...]

Each daemon gets a private dbus-daemon taken for its system bus and is claimed there by iio-sensor-proxy's own
client, monitor-sensor, so both are measured through the same D-Bus path. iio-sensor-proxy comes from Debian's
package (/usr/sbin/iio-sensor-proxy); it is only run here, never shipped or depended on.

Before anything is measured, each daemon serves one change of each kind it has claimed: a turn and back, and with
--light the lights three times brighter and back. Memory then counts the pages that publishing a change touches, in
the daemon and in libsystemd: the first change after start-up brings back about 0.8 MB of them in orientd, which
gives back its start-up pages (Sources/orientd/StartupPages.swift), and a run whose filter happens to publish
nothing until then would measure a daemon that has not served yet.

Prints, for each daemon:
  - over S seconds with the device still, after that: CPU % (utime + stime, 10 ms ticks: 60 s resolves 0.017 %),
    CPU in µs per second from each thread's /proc/.../schedstat (nanoseconds on a CPU: no tick to round to), context
    switches per second summed over threads (both sampled every 20 ms so that threads that end are counted), and
    Rss, Pss and Anonymous memory from /proc/PID/smaps_rollup;
  - the median reaction to N rotations done as a hand does them (0.5 s of gradual turn in 20 ms steps, then a
    random rest of 1 to 2.5 s), timed from the moment the hand stops to monitor-sensor's line, and to N
    instantaneous changes; with --rested-turns M, to M instantaneous changes after 12 to 15 s still each;
and, for orientd alone, context switches, CPU and memory over S seconds with the sensor present and no client at all.

With --light, a polled ambient light sensor (`iio-poll-als`, read every 0.8 s by both) sits beside the
accelerometer, at 300 lux with 2 % noise rewritten every 0.5 s (an office: no change worth publishing), and
monitor-sensor claims it too: the steady state of a GNOME laptop, whose settings daemon claims the light
sensor for the whole session.

With --smaps DIR, each daemon's resident kB per mapped file is written to DIR/LABEL.txt after the still window: which
library holds the pages that Rss only sums; orientd's with no client to DIR/orientd-alone.txt.
"""
import argparse
import math
import os
import random
import statistics
import threading
import time
from importlib import import_module

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

import process_figures  # noqa: E402
from monitored_daemon import MonitoredDaemon, orientd_command, settle  # noqa: E402

memory_script = import_module("daemon-memory")

ONE_G_RAW = 256  # raw units at scale 0.0383072 m/s² per unit
NAMES = {0: "normal", 90: "left-up", 180: "bottom-up", 270: "right-up"}


class Sensor:
    """The emulated accelerometer. Angle 0 is portrait (gravity along -y); 90 has the left edge up (+x)."""

    def __init__(self):
        self.testbed = UMockdev.Testbed.new()
        attributes = {"name": "accel_3d", "in_accel_x_raw": "0", "in_accel_y_raw": str(-ONE_G_RAW),
                      "in_accel_z_raw": "0", "in_accel_scale": "0.0383072"}
        # iio-sensor-proxy looks only at devices its udev rule tagged; orientd ignores the property.
        properties = {"IIO_SENSOR_PROXY_TYPE": "iio-poll-accel", "ACCEL_LOCATION": "display"}
        self.path = self.testbed.add_device(
            "iio", "iio:device0", None,
            [item for pair in attributes.items() for item in (pair[0], pair[1] + "\n")],
            [item for pair in properties.items() for item in pair])

    def add_light(self):
        """A polled light sensor, kept at `light` lux (300) with 2 % noise by a thread until the process ends."""
        self.light = 300
        path = self.testbed.add_device(
            "iio", "iio:device1", None, ["name", "als\n", "in_illuminance_input", "300\n"],
            ["IIO_SENSOR_PROXY_TYPE", "iio-poll-als"])
        noise = random.Random(3)

        def keep_noisy():
            while True:
                self.testbed.set_attribute(path, "in_illuminance_input", f"{round(self.light * noise.gauss(1, 0.02))}\n")
                time.sleep(0.5)

        threading.Thread(target=keep_noisy, daemon=True).start()

    def environment(self):
        return dict(os.environ, LD_PRELOAD="libumockdev-preload.so.0", UMOCKDEV_DIR=self.testbed.get_root_dir())

    def tilt(self, degrees):
        radians = math.radians(degrees)
        self.testbed.set_attribute(self.path, "in_accel_x_raw", f"{round(ONE_G_RAW * math.sin(radians))}\n")
        self.testbed.set_attribute(self.path, "in_accel_y_raw", f"{round(-ONE_G_RAW * math.cos(radians))}\n")


class Daemon(MonitoredDaemon):
    """A daemon claimed by monitor-sensor, its orientation changes timestamped."""

    def __init__(self, label, command, sensor, claim=True, claims=("--accel",)):
        super().__init__(label, command, sensor.environment(), claims if claim else ())

    def parse(self, line):
        if "orientation changed:" in line:
            return line.rsplit(":", 1)[1].strip()
        # monitor-sensor: "    Light changed: 300.000000 (lux)"
        if "Light changed:" in line:
            return float(line.split(":", 1)[1].split()[0])
        return None

    def first_heard(self, matches, since, timeout):
        """When a value that `matches` was first heard after `since`, waiting up to `timeout` s; None if not."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for stamp, value in list(self.changes):
                if stamp >= since and matches(value):
                    return stamp
            time.sleep(0.005)
        return None

    def first_change_to(self, name, since, timeout):
        return self.first_heard(lambda value: value == name, since, timeout)


def write_resident_by_file(pid, path):
    """Resident kB of each mapped file, largest first, and their total: which library holds the pages that
    smaps_rollup only sums."""
    resident = memory_script.mappings(pid, top=None)
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w") as out:
        for name, kb in resident:
            out.write(f"{kb:8d} {name}\n")
        out.write(f"{sum(kb for _, kb in resident):8d} total\n")


def serve_each_change(sensor, daemons, light):
    """A turn and back, and with `light` the lights x3 and back: each daemon publishes one change of each kind it
    serves before anything is measured. Says so when a daemon does not."""
    def turned(angle):
        return (f"orientation {NAMES[angle]}", lambda: sensor.tilt(angle), lambda value: value == NAMES[angle])

    def lit(lux):
        def switch():
            sensor.light = lux
        # Within 30 %: the sensor's noise is on every level read.
        return (f"light {lux} lux", switch, lambda value: isinstance(value, float) and abs(value - lux) <= 0.3 * lux)

    steps = [turned(90), turned(0)] + ([lit(900), lit(300)] if light else [])
    for change, make, matches in steps:
        since = time.monotonic()
        make()
        for d in daemons:
            if d.first_heard(matches, since, timeout=5) is None:
                print(f"warning: {d.label} published no change to {change} within 5 s")
        time.sleep(1)


def still(daemons, seconds):
    """CPU and context switches of each daemon over `seconds` (process_figures.still)."""
    return process_figures.still({d.label: d.pid for d in daemons}, seconds)


def reactions(sensor, daemons, turns, gradual, rest=(1.0, 2.5)):
    """Median reaction of each daemon, in ms, to `turns` rotations between portrait and landscape, each after a
    random rest drawn from `rest` (seconds)."""
    times = {d.label: [] for d in daemons}
    missed = {d.label: 0 for d in daemons}
    angle = 0
    rng = random.Random(7)
    for _ in range(turns):
        target = 90 if angle == 0 else 0
        if gradual:
            steps = 25  # 0.5 s in 20 ms steps
            for step in range(1, steps + 1):
                sensor.tilt(angle + (target - angle) * step / steps)
                time.sleep(0.02)
        else:
            sensor.tilt(target)
        stopped = time.monotonic()
        for d in daemons:
            # A commit during the turn counts as a negative reaction.
            seen = d.first_change_to(NAMES[target], stopped - 0.6, timeout=3)
            if seen is None:
                missed[d.label] += 1
            else:
                times[d.label].append(1000 * (seen - stopped))
        angle = target
        time.sleep(rng.uniform(*rest))
    return {label: (statistics.median(values) if values else float("nan"), missed[label])
            for label, values in times.items()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("orientd")
    parser.add_argument("--still", type=float, default=60)
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--rested-turns", type=int, default=0,
                        help="instant turns after 12 to 15 s still, where orientd reads at its rest rate")
    parser.add_argument("--rate", type=float, default=50)
    parser.add_argument("--light", action="store_true", help="a claimed light sensor beside the accelerometer")
    parser.add_argument("--orientd-arg", action="append", default=[])
    parser.add_argument("--smaps", metavar="DIR",
                        help="after the still window, write each daemon's resident kB per mapped file to DIR/LABEL.txt")
    args = parser.parse_args()

    sensor = Sensor()
    claims = ("--accel",)
    if args.light:
        sensor.add_light()
        claims = ("--accel", "--light")
    orientd = orientd_command(args.orientd, "side-by-side-", ["--rate", f"{args.rate:g}", *args.orientd_arg])
    daemons = [
        Daemon("iio-sensor-proxy", ["/usr/sbin/iio-sensor-proxy"], sensor, claims=claims),
        Daemon("orientd", orientd, sensor, claims=claims),
    ]
    try:
        settle(daemons)
        serve_each_change(sensor, daemons, args.light)
        figures = still(daemons, args.still)
        if args.smaps:
            for d in daemons:
                write_resident_by_file(d.pid, os.path.join(args.smaps, f"{d.label}.txt"))
        hand = reactions(sensor, daemons, args.turns, gradual=True)
        jump = reactions(sensor, daemons, args.turns, gradual=False)
        # orientd reads a device still for 10 s at its rest rate: instant turns after 12 to 15 s still.
        rested = reactions(sensor, daemons, args.rested_turns, gradual=False, rest=(12, 15)) if args.rested_turns else None
        print(f"{'':18} {'CPU %':>7} {'CPU µs/s':>9} {'ctx sw/s':>9} {'Rss MB':>7} {'Pss MB':>7} {'Anon MB':>8} "
              f"{'hand turn ms':>13} {'instant ms':>11}" + (f" {'rested ms':>10}" if rested else ""))
        for d in daemons:
            cpu, woke, mem, micro = figures[d.label]
            (hand_ms, hand_missed), (jump_ms, jump_missed) = hand[d.label], jump[d.label]
            print(f"{d.label:18} {cpu:7.3f} {micro:9.0f} {woke:9.1f} {mem['Rss']:7.1f} {mem['Pss']:7.1f} {mem['Anonymous']:8.1f} "
                  f"{hand_ms:10.0f}{'*' * hand_missed:3} {jump_ms:8.0f}{'*' * jump_missed:3}"
                  + (f" {rested[d.label][0]:7.0f}{'*' * rested[d.label][1]:3}" if rested else ""))
        print(f"(still for {args.still:g} s, {args.turns} turns each; * marks a turn with no reaction within 3 s; "
              f"claimed: {' '.join(claims)})")
    finally:
        for d in daemons:
            d.stop()

    alone = Daemon("orientd", orientd, sensor, claim=False)
    try:
        time.sleep(3)
        cpu, woke, mem, micro = still([alone], args.still)["orientd"]
        if args.smaps:
            write_resident_by_file(alone.pid, os.path.join(args.smaps, "orientd-alone.txt"))
        print(f"orientd with the sensor{'s' if args.light else ''} present and no client: {woke * args.still:.0f} context switches "
              f"in {args.still:g} s, CPU {cpu:.3f} % ({micro:.0f} µs/s), Rss {mem['Rss']:.1f} MB, Pss {mem['Pss']:.1f} MB")
    finally:
        alone.stop()


if __name__ == "__main__":
    main()
