#!/usr/bin/python3
"""Brightness hunting over a family of rooms: orientd and iio-sensor-proxy side by side, scene after scene.

Usage: light-scenes.py ORIENTD [--seeds 1,2,3,4,5] [--steady S] [--orientd-arg ARG ...]

Each seed makes one scene (issue 39's family), drawn at random within:
  - the room's level, 20 to 800 lux; sensor noise 1 to 5 % (Gaussian); the sensor's own update period 0.1 to 1 s
    (its value changes only that often, whatever the daemons poll);
  - a typing hand's shadows: the level dimmed to 50 to 90 % of itself for 0.2 to 2.5 s, one every 1 to 6 s;
  - mains flicker aliased by the sensor's integration: a slow beat of 0 to 4 % at a period of 2 to 10 s;
then, in turn: S seconds of that steady room; 5 s of it without shadows; a ramp, the level doubled or halved over
30 s (dusk, a cloud); six steps from x1.5 to x50 up or down, each held 5 s. Shadows run through the steady part
only.

One polled IIO light sensor (umockdev, iio-poll-als, no integration time: both daemons poll it every 0.8 s) is
read by both daemons at once, each on a private bus, each claimed by monitor-sensor --light (light-hunting.py's
Daemon). Prints, per scene and daemon:
  - changes a minute while steady, and iio-sensor-proxy's over orientd's (goal: 5x or more);
  - the ramp: the largest gap between the level last published and the room's true level, from 2 s into the ramp,
    and when (goal: within 10 %);
  - each step of x3 or more: when each daemon published a level within 30 % of the new one, and orientd's lag
    behind iio-sensor-proxy (goal: at most 1 s);
  - at the end of each step's hold: the level each last published, relative to the room's (the level at rest).
"""
import argparse
import math
import random
import time

from importlib import import_module

from monitored_daemon import orientd_command, settle

hunting = import_module("light-hunting")

TICK = 0.05


class Scene:
    """One room, drawn from `seed`."""

    def __init__(self, seed):
        self.random = random.Random(seed)
        r = self.random
        self.seed = seed
        self.room = math.exp(r.uniform(math.log(20), math.log(800)))
        self.noise = r.uniform(0.01, 0.05)
        self.update = r.uniform(0.1, 1.0)
        self.flicker = r.uniform(0, 0.04)
        self.flicker_period = r.uniform(2, 10)
        self.ramp = r.choice([2.0, 0.5])
        self.steps = [r.choice([1, -1]) * math.exp(r.uniform(math.log(1.5), math.log(50))) for _ in range(6)]

    def describe(self):
        return (f"seed {self.seed}: {self.room:.0f} lux, noise {100 * self.noise:.1f} %, updates every "
                f"{self.update:.2f} s, flicker {100 * self.flicker:.1f} % at {self.flicker_period:.1f} s, ramp x{self.ramp:g}, "
                f"steps {', '.join(f'x{abs(s):.1f}' + (' up' if s > 0 else ' down') for s in self.steps)}")


class SceneSensor(hunting.Sensor):
    """light-hunting.py's sensor, its level written as the scene says: `level` is the room's true level now."""

    def __init__(self, scene):
        self.scene = scene
        self.shadowing = False
        self.shadow_until = 0.0
        self.shadow_to = 1.0
        self.next_shadow = 0.0
        self.next_update = 0.0
        super().__init__(scene.seed)
        self.level = scene.room

    def shadows(self, on):
        self.shadowing = on
        self.next_shadow = time.monotonic() + self.scene.random.uniform(1, 6)

    def run(self):
        r = self.scene.random
        while not self.stopping:
            now = time.monotonic()
            if now >= self.next_update:
                self.next_update = now + self.scene.update
                if self.shadowing and now >= self.next_shadow:
                    self.shadow_until = now + r.uniform(0.2, 2.5)
                    self.shadow_to = r.uniform(0.5, 0.9)
                    self.next_shadow = self.shadow_until + r.uniform(1, 6)
                shade = self.shadow_to if now < self.shadow_until else 1.0
                beat = 1 + self.scene.flicker * math.sin(2 * math.pi * now / self.scene.flicker_period)
                lux = max(0, round(self.level * shade * beat * r.gauss(1, self.scene.noise)))
                self.testbed.set_attribute(self.light, "in_illuminance_input", f"{lux}\n")
            time.sleep(TICK)


def last_published(daemon, at):
    """The level `daemon` had published last by `at`, or None."""
    levels = [level for stamp, level in list(daemon.changes) if stamp <= at]
    return levels[-1] if levels else None


def run_scene(scene, orientd, steady):
    sensor = SceneSensor(scene)
    daemons = [hunting.Daemon("iio-sensor-proxy", [hunting.sensor_proxy_daemon()], sensor),
               hunting.Daemon("orientd", orientd, sensor)]
    result = {"steps": [], "rest": {d.label: [] for d in daemons}, "ramp": {}}
    try:
        settle(daemons)
        start, end = sensor.steady(steady)
        result["changes"] = {d.label: d.count(start, end) / ((end - start) / 60) for d in daemons}

        # The room without shadows for 5 s first, so that a shadow published as the steady part ends (and the
        # hold that brings the level back) is not counted as trailing the ramp.
        time.sleep(5)
        # The ramp: the true level at each tick, and each daemon's gap from 2 s in, with when it was largest.
        begin, base = time.monotonic(), sensor.level
        gaps = {d.label: (0.0, 0.0) for d in daemons}
        while (elapsed := time.monotonic() - begin) < 30:
            sensor.level = base * scene.ramp ** (elapsed / 30)
            if elapsed >= 2:
                for d in daemons:
                    published = last_published(d, time.monotonic())
                    if published is not None:
                        gaps[d.label] = max(gaps[d.label], (abs(published - sensor.level) / sensor.level, elapsed))
            time.sleep(0.1)
        result["ramp"] = gaps
        time.sleep(2)

        for factor in scene.steps:
            target = sensor.level * factor if factor > 0 else sensor.level / -factor
            target = min(max(target, 2.0), 20000.0)
            ratio = max(target, sensor.level) / min(target, sensor.level)
            sensor.level = target
            at = time.monotonic()
            time.sleep(5)
            reached = {d.label: d.reached(target, at, at + 5) for d in daemons}
            result["steps"].append((ratio, target, {k: (None if v is None else v - at) for k, v in reached.items()}))
            for d in daemons:
                published = last_published(d, time.monotonic())
                result["rest"][d.label].append(None if published is None else published / target - 1)
    finally:
        sensor.stopping = True
        for d in daemons:
            d.stop()
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("orientd")
    parser.add_argument("--seeds", default="1,2,3,4,5")
    parser.add_argument("--steady", type=float, default=60)
    parser.add_argument("--orientd-arg", action="append", default=[])
    args = parser.parse_args()

    for seed in (int(s) for s in args.seeds.split(",")):
        scene = Scene(seed)
        result = run_scene(scene, orientd_command(args.orientd, "light-scenes-", args.orientd_arg), args.steady)
        isp, ours = result["changes"]["iio-sensor-proxy"], result["changes"]["orientd"]
        print(scene.describe())
        print(f"  changes/min while steady: iio-sensor-proxy {isp:.1f}, orientd {ours:.1f} "
              f"({isp / ours if ours else float('inf'):.1f}x fewer)")
        (isp_gap, isp_at), (our_gap, our_at) = result["ramp"]["iio-sensor-proxy"], result["ramp"]["orientd"]
        print(f"  ramp, largest gap from the true level: iio-sensor-proxy {100 * isp_gap:.1f} % ({isp_at:.0f} s in), "
              f"orientd {100 * our_gap:.1f} % ({our_at:.0f} s in)")
        lags = []
        for ratio, target, reached in result["steps"]:
            isp_at, our_at = reached["iio-sensor-proxy"], reached["orientd"]
            lag = None if None in (isp_at, our_at) else our_at - isp_at
            if ratio >= 3 and lag is not None:
                lags.append(lag)
            fmt = lambda v: "never" if v is None else f"{v:.2f} s"  # noqa: E731
            print(f"  step x{ratio:.1f} to {target:.0f} lux: iio-sensor-proxy {fmt(isp_at)}, orientd {fmt(our_at)}"
                  + (f", orientd behind by {lag:.2f} s" if lag is not None else ""))
        rest = [v for v in result["rest"]["orientd"] if v is not None]
        isp_rest = [v for v in result["rest"]["iio-sensor-proxy"] if v is not None]
        print(f"  steps of x3 or more, orientd behind: largest {max(lags):.2f} s" if lags else "  no step of x3 or more")
        print(f"  at rest, level published against the room's: iio-sensor-proxy within {100 * max(map(abs, isp_rest)):.0f} %, "
              f"orientd within {100 * max(map(abs, rest)):.0f} %" if rest and isp_rest else "  at rest: nothing published")
        print(flush=True)


if __name__ == "__main__":
    main()
