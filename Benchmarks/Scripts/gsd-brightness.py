#!/usr/bin/python3
"""GNOME's own ambient brightness client, gsd-power, driven by orientd and by iio-sensor-proxy in turn.

Usage: gsd-brightness.py ORIENTD [--seed N] [--noise F] [--steady S] [--dim S] [--target S] [--daemon NAME ...]
                           [--keep DIR] [--orientd-arg ARG ...]
e.g.   /usr/bin/python3 Benchmarks/Scripts/gsd-brightness.py /tmp/orientd-bench/orientd

It runs Debian's gsd-power (gnome-settings-daemon 43, /usr/libexec/gsd-power --verbose) headless, with these
commands per run (ADDRESS: the run's private system bus, SESSION: its private session bus):
  Xvfb -displayfd FD -nolisten tcp -screen 0 1024x768x24          (once, for all runs)
  dbus-daemon --session --nofork --print-address=1                 (the system bus, by monitored_daemon.py)
  python3 -m dbusmock --system --template Tests/.../polkitd_claims.py   (by polkit.py)
  orientd run --dbus --config /dev/null --socket DIR/orientd.sock --state-directory DIR/state
      or /usr/sbin/iio-sensor-proxy                                (with the testbed's LD_PRELOAD/UMOCKDEV_DIR)
  python3 -m dbusmock --system --template logind                  (on ADDRESS)
  python3 -m dbusmock --system --template upower -p '{"OnBattery": false}'   (on ADDRESS)
  dbus-daemon --session --nofork --print-address=1                 (SESSION)
  python3 -m dbusmock --session org.gnome.SessionManager /org/gnome/SessionManager org.gnome.SessionManager
  python3 -m dbusmock --session org.gnome.Mutter.DisplayConfig /org/gnome/Mutter/DisplayConfig \
      org.gnome.Mutter.DisplayConfig
  python3 -m dbusmock --session --template gnome_screensaver
      (the two plain mocks then get their methods and properties through busctl call ... org.freedesktop.DBus.Mock
      AddMethod / AddProperty)
  /usr/libexec/gsd-power --verbose   with DISPLAY, DBUS_SYSTEM_BUS_ADDRESS=ADDRESS, DBUS_SESSION_BUS_ADDRESS=SESSION,
      LD_PRELOAD=libumockdev-preload.so.0, UMOCKDEV_DIR=the testbed, GSD_BACKLIGHT_HELPER=RUN/helper,
      GSETTINGS_BACKEND=memory (the schemas' defaults: ambient-enabled true; the machine's settings untouched),
      XDG_CONFIG_HOME/XDG_CACHE_HOME/XDG_RUNTIME_DIR in RUN, NO_AT_BRIDGE=1, CANBERRA_DRIVER=null

The stand-ins, and why gsd-power 43 needs each before it claims the light (read from its source and
gnome-desktop 43's; not each checked by leaving it out):
  - Xvfb: gsd-power is a GTK 3 program on GDK's X11 backend; gtk_init fails without a display.
  - logind (dbusmock template, on the daemon's system bus): gsd_power_manager_start gives up ("No systemd (logind)
    support, disabling plugin") without org.freedesktop.login1. The template has no session/auto object, so
    gsd's backlight finds no Session.SetBrightness and falls back to GSD_BACKLIGHT_HELPER, as it does in GNOME's tests.
  - upower (template, system bus): gsd-power builds its state on an UpClient (lid, battery) from the start.
  - org.gnome.Mutter.DisplayConfig (session bus; GetResources with no outputs, PowerSaveMode): the backlight and
    the light claim are only set up once gnome-desktop's GnomeRRScreen has read the resources from mutter.
  - org.gnome.SessionManager (session bus; RegisterClient, SessionIsActive=true): gsd claims the light only while
    the session is active.
  - org.gnome.ScreenSaver (template, session bus): gsd-power connects to its signals at start.
  - a backlight device (subsystem backlight, type raw, max_brightness 101, brightness 51: 50 %) added to
    light-hunting.py's umockdev testbed, beside its accelerometer and light sensor, and GSD_BACKLIGHT_HELPER: a
    bash script run for every write (gsd-power passes the device's sysfs path and the raw value), which appends
    "$EPOCHREALTIME value" to RUN/writes.log and writes the value into the emulated brightness attribute, which
    gsd-power reads back. With max_brightness 101, gsd's percentage p is written as p + 1.

The light: light-scenes.py's SceneSensor (itself light-hunting.py's Sensor: an iio-poll-als sensor rewritten every
50 ms) with a scene fixed at 200 lux, 5 % Gaussian noise (--noise 0.05), no flicker, and its typing-hand shadows (a dip to 50-90 %
for 0.2-2.5 s, one every 1-6 s). Each daemon is alone on a fresh private system bus (monitored_daemon.py, no
monitor-sensor), with gsd-power as its only light client. Each run:
  1. 200 lux with noise only until gsd-power claims the light and normalises (it takes the level it reads first as
     the current brightness, 50 %: brightness = 50 % x level / that level), then 10 s more to settle;
  2. S s (--steady, 60) of 200 lux: variant "noise" without shadows, variant "shadows" with them; the helper's
     writes in that window are counted and their range recorded;
  3. the room dimmed to 50 lux, noise only, for --dim s (20): the brightness then is recorded. In the "noise" run
     the 10 s before the dim are shadow-free, and the room is held at 50 lux for --target s (30) more: where gsd
     settles then is the target, the brightness gsd reaches for a steady 50 lux. "norm" is what gsd's
     normalisation predicts for it: 50 % x 50 lux / the level it normalised on.
Writes: backlight helper runs (gsd-power sets the backlight at every LightLevel change it receives, whether or
not the percentage changed); "values" counts writes that changed the value. Brightness is in gsd's percent.
--daemon (orientd or iio-sensor-proxy, repeatable) runs only those; --keep DIR keeps each run's gsd-power log and
writes.log there.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import tempfile
import time

from importlib import import_module

from monitored_daemon import MonitoredDaemon, orientd_command, settle

hunting = import_module("light-hunting")
scenes = import_module("light-scenes")

PYTHON = "/usr/bin/python3"
GSD_POWER = "/usr/libexec/gsd-power"
ROOM = 200.0
DIM = 50.0
NOISE = 0.05
MAX_BRIGHTNESS = 101  # as in GNOME's tests: percentages map to raw values p + 1
START_BRIGHTNESS = 51  # 50 %

READ = re.compile(r"Read last absolute light level: ([0-9.]+)")

HELPER = """#!/bin/bash
printf '%s %s\\n' "$EPOCHREALTIME" "$2" >> {log}
echo "$2" > "$1/brightness"
"""


def percent(raw):
    return raw - 1


class Room(scenes.SceneSensor):
    """The emulated light sensor at ROOM lux with NOISE, shadows on demand; plus the backlight device."""

    def __init__(self, seed, noise):
        scene = scenes.Scene(seed)
        scene.room, scene.noise, scene.update, scene.flicker = ROOM, noise, hunting.TICK, 0.0
        super().__init__(scene)
        self.backlight = self.testbed.add_device(
            "backlight", "mock_backlight", None,
            ["type", "raw", "max_brightness", str(MAX_BRIGHTNESS), "brightness", str(START_BRIGHTNESS)], [])

    def stop(self):
        self.stopping = True
        time.sleep(2 * hunting.TICK)


def wait_for_name(address, name, process, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if subprocess.run(["busctl", f"--address={address}", "status", name],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
            return
        if process.poll() is not None:
            break
        time.sleep(0.1)
    raise RuntimeError(f"{name} did not appear on {address}")


def dbusmock(address, bus, name, arguments, log=None):
    """python-dbusmock on the bus at `address` (`bus`: "--system" or "--session"), waited for until it owns `name`."""
    variable = "DBUS_SYSTEM_BUS_ADDRESS" if bus == "--system" else "DBUS_SESSION_BUS_ADDRESS"
    process = subprocess.Popen([PYTHON, "-m", "dbusmock", bus, *arguments], env=dict(os.environ, **{variable: address}),
                               stdout=log or subprocess.DEVNULL, stderr=subprocess.STDOUT)
    wait_for_name(address, name, process)
    return process


def session_stand_ins(address, folder):
    """gnome-session's and mutter's interfaces, as far as gsd-power uses them, and gnome-shell's screensaver."""
    log = open(os.path.join(folder, "session-mocks.log"), "w")
    manager = dbusmock(address, "--session", "org.gnome.SessionManager",
                       ["org.gnome.SessionManager", "/org/gnome/SessionManager", "org.gnome.SessionManager"], log)
    display = dbusmock(address, "--session", "org.gnome.Mutter.DisplayConfig",
                       ["org.gnome.Mutter.DisplayConfig", "/org/gnome/Mutter/DisplayConfig",
                        "org.gnome.Mutter.DisplayConfig"], log)
    screensaver = dbusmock(address, "--session", "org.gnome.ScreenSaver", ["--template", "gnome_screensaver"], log)
    busctl = ["busctl", f"--address={address}", "call"]
    sm = ["org.gnome.SessionManager", "/org/gnome/SessionManager", "org.freedesktop.DBus.Mock"]
    subprocess.run(busctl + sm + ["AddMethod", "sssss", "org.gnome.SessionManager", "RegisterClient", "ss", "o",
                                  "ret = '/org/gnome/SessionManager/Client1'"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(busctl + sm + ["AddMethod", "sssss", "org.gnome.SessionManager", "IsInhibited", "u", "b",
                                  "ret = False"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(busctl + sm + ["AddProperty", "ssv", "org.gnome.SessionManager", "SessionIsActive", "b", "true"],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(busctl + sm + ["AddProperty", "ssv", "org.gnome.SessionManager", "InhibitedActions", "u", "0"],
                   check=True, stdout=subprocess.DEVNULL)
    dc = ["org.gnome.Mutter.DisplayConfig", "/org/gnome/Mutter/DisplayConfig", "org.freedesktop.DBus.Mock"]
    subprocess.run(busctl + dc + ["AddMethod", "sssss", "org.gnome.Mutter.DisplayConfig", "GetResources", "",
                                  "ua(uxiiiiiuaua{sv})a(uxiausauaua{sv})a(uxuudu)ii",
                                  "ret = (dbus.UInt32(1), [], [], [], 1024, 768)"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(busctl + dc + ["AddProperty", "ssv", "org.gnome.Mutter.DisplayConfig", "PowerSaveMode", "i", "0"],
                   check=True, stdout=subprocess.DEVNULL)
    return [screensaver, display, manager]


class Run:
    """One daemon on its own system bus, gsd-power its only light client, on a fresh emulated room."""

    def __init__(self, label, command, display, seed, noise, folder):
        self.label = label
        self.room = Room(seed, noise)
        self.daemon = MonitoredDaemon(label, command, self.room.environment())
        self.processes = []
        try:
            settle([self.daemon])
            system = self.system_address()
            self.processes.append(dbusmock(system, "--system", "org.freedesktop.login1", ["--template", "logind"]))
            self.processes.append(dbusmock(system, "--system", "org.freedesktop.UPower",
                                           ["--template", "upower", "-p", json.dumps({"OnBattery": False})]))
            self.session_bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            self.processes.append(self.session_bus)
            session = self.session_bus.stdout.readline().strip()
            self.processes[:0] = session_stand_ins(session, folder)

            self.writes_log = os.path.join(folder, "writes.log")
            open(self.writes_log, "w").close()
            helper = os.path.join(folder, "helper")
            with open(helper, "w") as f:
                f.write(HELPER.format(log=self.writes_log))
            os.chmod(helper, 0o755)
            for sub in ("config", "cache", "runtime"):
                os.makedirs(os.path.join(folder, sub), mode=0o700, exist_ok=True)
            env = dict(self.room.environment(), DISPLAY=display, DBUS_SYSTEM_BUS_ADDRESS=system,
                       DBUS_SESSION_BUS_ADDRESS=session, GSD_BACKLIGHT_HELPER=helper, GSETTINGS_BACKEND="memory",
                       XDG_CONFIG_HOME=os.path.join(folder, "config"), XDG_CACHE_HOME=os.path.join(folder, "cache"),
                       XDG_RUNTIME_DIR=os.path.join(folder, "runtime"), XDG_SESSION_TYPE="x11", NO_AT_BRIDGE="1",
                       CANBERRA_DRIVER="null", LC_ALL="C")
            env.pop("WAYLAND_DISPLAY", None)
            self.gsd_log_path = os.path.join(folder, "gsd-power.log")
            self.gsd_log = open(self.gsd_log_path, "w")
            self.gsd = subprocess.Popen([GSD_POWER, "--verbose"], env=env, stdout=self.gsd_log,
                                        stderr=subprocess.STDOUT)
        except BaseException:
            self.stop()
            raise

    def system_address(self):
        with open(f"/proc/{self.daemon.pid}/environ", "rb") as f:
            for item in f.read().split(b"\0"):
                if item.startswith(b"DBUS_SYSTEM_BUS_ADDRESS="):
                    return item.split(b"=", 1)[1].decode()
        raise RuntimeError("no DBUS_SYSTEM_BUS_ADDRESS in the daemon's environment")

    def gsd_lines(self):
        with open(self.gsd_log_path, errors="replace") as f:
            return f.read().splitlines()

    def wait_for_ambient(self, timeout=30):
        """Until gsd-power has normalised on a level and set the backlight from it; returns that level."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.gsd.poll() is not None:
                raise RuntimeError(f"gsd-power exited with {self.gsd.returncode}; see {self.gsd_log_path}")
            if self.daemon.process.poll() is not None:
                raise RuntimeError(f"{self.label} exited with {self.daemon.process.returncode}")
            lines = self.gsd_lines()
            setting = next((i for i, line in enumerate(lines) if "Setting brightness from ambient" in line), None)
            if setting is not None:
                # gsd-power logs "Renormalizing" at each reading until it has a brightness to normalise on (and
                # again after a manual change): the level read just before the last one is the level it took.
                renormalizing = max(i for i, line in enumerate(lines[:setting]) if "Renormalizing light level" in line)
                return next(float(m.group(1)) for m in (READ.search(line) for line in reversed(lines[:renormalizing]))
                            if m)
            time.sleep(0.2)
        raise RuntimeError(f"gsd-power did not set the backlight from ambient light in {timeout} s; "
                           f"see {self.gsd_log_path}")

    def writes(self):
        """[(time.time(), percent)] of every backlight write so far."""
        result = []
        with open(self.writes_log) as f:
            for line in f:
                stamp, value = line.split()
                result.append((float(stamp), percent(int(value))))
        return result

    def brightness_at(self, at):
        """The last brightness written by `at` (the device's initial one if none)."""
        value = percent(START_BRIGHTNESS)
        for stamp, v in self.writes():
            if stamp <= at:
                value = v
        return value

    def stop(self):
        if getattr(self, "gsd", None):
            self.gsd.terminate()
            try:
                self.gsd.wait(5)
            except subprocess.TimeoutExpired:
                self.gsd.kill()
                self.gsd.wait()
            self.gsd_log.close()
        for process in self.processes:
            process.terminate()
            process.wait()
        self.daemon.stop()
        self.room.stop()


def measure(label, command, variant, display, args, folder):
    run = Run(label, command, display, args.seed, args.noise, folder)
    try:
        norm_level = run.wait_for_ambient()
        time.sleep(10)
        start = time.time()
        if variant == "shadows":
            run.room.shadows(True)
        time.sleep(args.steady)
        end = time.time()
        run.room.shadows(False)
        run.room.level = DIM
        dim = time.time()
        time.sleep(args.dim)
        after = run.brightness_at(time.time())
        target = None
        if variant == "noise":
            time.sleep(args.target)
            target = run.brightness_at(time.time())
        writes = run.writes()
        window = [v for s, v in writes if start <= s < end]
        values = [run.brightness_at(start)] + window
        changed = sum(1 for a, b in zip(values, values[1:]) if a != b)
        dim_writes = sum(1 for s, _ in writes if dim <= s < dim + args.dim)
        lines = run.gsd_lines()
        warnings = [l for l in lines if "WARNING" in l or "CRITICAL" in l]
        return dict(label=label, variant=variant, writes=len(window), changed=changed, low=min(values),
                    high=max(values), after=after, target=target, norm=percent(START_BRIGHTNESS) * DIM / norm_level,
                    norm_level=norm_level, dim_writes=dim_writes, warnings=warnings, seconds=end - start)
    finally:
        run.stop()


def start_xvfb():
    read, write = os.pipe()
    process = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-nolisten", "tcp", "-screen", "0", "1024x768x24"],
                               pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as f:
        number = f.readline().strip()
    if not number:
        raise SystemExit("Xvfb did not start")
    return process, f":{number}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("orientd")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--noise", type=float, default=NOISE)
    parser.add_argument("--steady", type=float, default=60)
    parser.add_argument("--dim", type=float, default=20)
    parser.add_argument("--target", type=float, default=30)
    parser.add_argument("--daemon", action="append", choices=("orientd", "iio-sensor-proxy"))
    parser.add_argument("--keep")
    parser.add_argument("--orientd-arg", action="append", default=[])
    args = parser.parse_args()

    daemons = [("orientd", lambda: orientd_command(args.orientd, "gsd-brightness-", args.orientd_arg)),
               ("iio-sensor-proxy", lambda: [hunting.sensor_proxy_daemon()])]
    daemons = [d for d in daemons if not args.daemon or d[0] in args.daemon]
    xvfb, display = start_xvfb()
    results = []
    try:
        for label, command in daemons:
            for variant in ("noise", "shadows"):
                folder = tempfile.mkdtemp(prefix=f"gsd-brightness-{label}-{variant}-")
                try:
                    result = measure(label, command(), variant, display, args, folder)
                    results.append(result)
                    print(f"{label} {variant}: {result['writes']} writes in {result['seconds']:.0f} s, "
                          f"normalised on {result['norm_level']:.1f} lux"
                          + (f", {len(result['warnings'])} warnings: {result['warnings'][:3]}" if result["warnings"]
                             else ""), flush=True)
                finally:
                    if args.keep:
                        os.makedirs(args.keep, exist_ok=True)
                        for name in ("gsd-power.log", "writes.log"):
                            if os.path.exists(os.path.join(folder, name)):
                                shutil.copy(os.path.join(folder, name),
                                            os.path.join(args.keep, f"{label}-{variant}-{name}"))
                    shutil.rmtree(folder, ignore_errors=True)
    finally:
        xvfb.terminate()
        xvfb.wait()

    print()
    print(f"gsd-power 43 on one emulated sensor: {ROOM:.0f} lux, {100 * args.noise:.0f} % noise, {args.steady:.0f} s "
          f"counted after gsd settled; then {DIM:.0f} lux. Brightness in %; seed {args.seed}")
    print(f"{'daemon':17} {'variant':8} {'writes':>6} {'values':>6} {'min-max':>8} {'dim+' + format(args.dim, '.0f') + 's':>7}"
          f" {'target':>6} {'norm':>5} {'dim writes':>10}")
    for r in results:
        target = r["target"]
        print(f"{r['label']:17} {r['variant']:8} {r['writes']:6} {r['changed']:6} {r['low']:>3}-{r['high']:<4} "
              f"{r['after']:7} {target if target is not None else '-':>6} {r['norm']:5.1f} {r['dim_writes']:10}")


if __name__ == "__main__":
    main()
