#!/usr/bin/python3
"""CPU and wakeups of orientd on an emulated polled accelerometer (umockdev), idle and subscribed.

Usage: polled-cpu.py ORIENTD [--seconds S] [--rate HZ] [--dbus]

Emulates an accel_3d IIO device with umockdev, starts `ORIENTD run` on it (on-demand sampling) and measures,
over S seconds each: (1) with no client, (2) with one subscriber, the process's CPU time (utime + stime from
/proc/PID/stat) and the context switches of each thread (/proc/PID/task/*/status), i.e. its wakeups, with the
time each wakeup took on a CPU (/proc/PID/task/*/schedstat, in nanoseconds).
umockdev's preload library intercepts every sysfs read, so the subscribed figure is an upper bound of what the
same reads cost on real hardware. With --dbus, orientd also serves net.hadess.SensorProxy on a private bus,
and the client of the second measurement is iio-sensor-proxy's monitor-sensor claiming the accelerometer
instead of a socket subscriber. Memory (Rss, Pss, Anonymous from /proc/PID/smaps_rollup) ends each measurement.
"""
import argparse
import os
import socket
import subprocess
import tempfile
import time

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

from process_figures import cpu_seconds, scheduled_ns  # noqa: E402


def threads(pid):
    """Per thread: (context switches, CPU seconds, nanoseconds on a CPU)."""
    per_thread = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/status") as f:
                status = dict(line.split(":", 1) for line in f if ":" in line)
            name = status["Name"].strip()
            count = int(status["voluntary_ctxt_switches"]) + int(status["nonvoluntary_ctxt_switches"])
            per_thread[f"{name} ({tid})"] = (count, cpu_seconds(f"{pid}/task/{tid}"), scheduled_ns(f"{pid}/task/{tid}"))
        except FileNotFoundError:
            pass
    return per_thread


def measure(label, pid, seconds):
    cpu0, threads0 = cpu_seconds(pid), threads(pid)
    time.sleep(seconds)
    cpu1, threads1 = cpu_seconds(pid), threads(pid)
    used = cpu1 - cpu0
    print(f"{label}: CPU {used:.2f} s in {seconds:g} s = {100 * used / seconds:.2f} % of a core")
    for thread, (count, cpu, ns) in sorted(threads1.items()):
        count0, cpu0, ns0 = threads0.get(thread, (0, 0, 0))
        woke = count - count0
        each = f", {(ns - ns0) / 1000 / woke:.0f} µs a wakeup" if woke else ""
        print(f"    {thread}: {woke} context switches ({woke / seconds:.1f}/s), CPU {cpu - cpu0:.2f} s{each}")
    with open(f"/proc/{pid}/smaps_rollup") as f:
        rollup = {line.split(":")[0]: int(line.split()[1]) / 1024 for line in f if line.endswith("kB\n")}
    print(f"    memory: Rss {rollup['Rss']:.1f} MB, Pss {rollup['Pss']:.1f} MB, Anonymous {rollup['Anonymous']:.1f} MB")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("orientd")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--rate", type=float, default=50)
    parser.add_argument("--dbus", action="store_true")
    args = parser.parse_args()

    testbed = UMockdev.Testbed.new()
    attributes = {"name": "accel_3d", "in_accel_x_raw": "0", "in_accel_y_raw": "-256", "in_accel_z_raw": "0",
                  "in_accel_scale": "0.0383072"}
    testbed.add_device("iio", "iio:device0", None,
                       [item for pair in attributes.items() for item in (pair[0], pair[1] + "\n")], [])

    folder = tempfile.mkdtemp(prefix="orientd-cpu-")
    sock = os.path.join(folder, "orientd.sock")
    environment = dict(os.environ, LD_PRELOAD="libumockdev-preload.so.0", UMOCKDEV_DIR=testbed.get_root_dir())
    bus = None
    if args.dbus:
        # A private bus taken for the system bus; the session configuration lets anyone own any name.
        bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"], stdout=subprocess.PIPE, text=True)
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = bus.stdout.readline().strip()
    daemon = subprocess.Popen(
        [args.orientd, "run", "--rate", f"{args.rate:g}", "--sampling", "on-demand", "--socket", sock,
         "--state-directory", os.path.join(folder, "state"), "--config", "/dev/null"] + (["--dbus"] if args.dbus else []),
        env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while not os.path.exists(sock):
            if time.monotonic() > deadline:
                raise SystemExit("orientd did not create its socket")
            time.sleep(0.05)
        time.sleep(2)
        measure("idle, on-demand, no subscriber" + (", D-Bus facade on" if args.dbus else ""), daemon.pid, args.seconds)

        if args.dbus:
            monitor = subprocess.Popen(
                ["monitor-sensor", "--accel"], stdout=subprocess.DEVNULL,
                env=dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=environment["DBUS_SYSTEM_BUS_ADDRESS"]))
            time.sleep(2)
            measure(f"monitor-sensor claiming over D-Bus, polled at {args.rate:g} Hz", daemon.pid, args.seconds)
            monitor.terminate()
            monitor.wait()
            return

        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        client.connect(sock)
        client.sendall(b'{"op":"subscribe"}\n')
        # On demand, the sensor opens once subscribed: the reply says none, and an event says available.
        client.settimeout(5)
        received = ""
        try:
            while '"sensor":"available"' not in received:
                received += client.recv(4096).decode()
        except socket.timeout:
            print("warning: the sensor did not open; received:", received.strip())
        time.sleep(2)
        measure(f"one subscriber, polled at {args.rate:g} Hz", daemon.pid, args.seconds)
        client.close()
    finally:
        daemon.terminate()
        daemon.wait()
        if bus:
            bus.terminate()


if __name__ == "__main__":
    main()
