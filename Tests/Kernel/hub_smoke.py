#!/usr/bin/python3
"""Smoke test of hid_hub.py against the running kernel's own HID sensor drivers. Boots nothing: run it as root
inside a guest, e.g.

  vng -r /boot/vmlinuz-6.1.0-57-amd64 --disable-kvm --force-9p --memory 1G --cpus 1 \\
      --exec "python3 /work/wt-hub/Tests/Kernel/hub_smoke.py"

Prints what it saw, one line per check (PASS/FAIL) and the facts worth knowing (attribute names, scan layouts,
timings, what the driver set), and exits 1 if any check failed. --no-udev skips the udev part, --no-silent the
slow part where the hub stops answering.
"""
import argparse
import json
import os
import select
import stat
import struct
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
HUB = os.path.join(HERE, "hid_hub.py")
MODULES = ["uhid", "hid-sensor-hub", "hid-sensor-iio-common", "hid-sensor-trigger", "hid-sensor-accel-3d",
           "hid-sensor-als", "hid-sensor-prox", "hid-sensor-magn-3d"]
failures = []


def check(ok, what, detail=""):
    print(f"{'PASS' if ok else 'FAIL'} {what}" + (f": {detail}" if detail else ""), flush=True)
    if not ok:
        failures.append(what)
    return ok


def note(text):
    print(f"     {text}", flush=True)


def read(path):
    with open(path, encoding="utf-8") as file:
        return file.read().strip()


def write(path, value):
    with open(path, "w", encoding="utf-8") as file:
        file.write(str(value))


def timed(function, *arguments):
    start = time.monotonic()
    try:
        result = function(*arguments)
    except OSError as error:
        result = error
    return result, time.monotonic() - start


class HubProcess:
    """hid_hub.py as a child, spoken to in JSON lines."""

    def __init__(self, *arguments):
        self.process = subprocess.Popen([sys.executable, HUB, *arguments], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)
        self.ready = self.receive(30)

    def receive(self, timeout):
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        if not ready:
            raise TimeoutError("the hub did not answer")
        return json.loads(self.process.stdout.readline())

    def send(self, command, timeout=60):
        self.process.stdin.write(json.dumps(command) + "\n")
        return self.receive(timeout)

    def close(self):
        self.process.stdin.close()
        self.process.wait(20)


# --- IIO buffers ---

def scan_layout(iio):
    """The enabled scan elements in index order: (name, offset, storage bytes, signed, realbits, shift)."""
    folder = os.path.join(iio, "scan_elements")
    elements = []
    for entry in os.listdir(folder):
        if entry.endswith("_en") and read(os.path.join(folder, entry)) == "1":
            name = entry[:-3]
            index = int(read(os.path.join(folder, name + "_index")))
            kind = read(os.path.join(folder, name + "_type"))  # e.g. le:s32/32>>0
            endian, rest = kind.split(":")
            sign, rest = rest[0], rest[1:]
            realbits, rest = rest.split("/")
            storage, shift = rest.split(">>")
            elements.append((index, name, endian, sign == "s", int(realbits), int(storage), int(shift)))
    layout, offset = [], 0
    for index, name, endian, signed, realbits, storage, shift in sorted(elements):
        size = storage // 8
        offset = (offset + size - 1) // size * size  # each element aligned to its own size
        layout.append((name, offset, size, endian, signed, realbits, shift))
        offset += size
    largest = max(entry[2] for entry in layout)
    return layout, (offset + largest - 1) // largest * largest


def decode_scan(layout, scan):
    values = {}
    for name, offset, size, endian, signed, realbits, shift in layout:
        raw = int.from_bytes(scan[offset:offset + size], "little" if endian == "le" else "big")
        raw = (raw >> shift) & ((1 << realbits) - 1)
        if signed and raw >> (realbits - 1):
            raw -= 1 << realbits
        values[name] = raw
    return values


class Capture:
    """A buffered capture: enables every scan element listed, sets the trigger, enables the buffer and reads."""

    def __init__(self, device, elements):
        self.iio, self.dev = device["iio"], device["dev"]
        for element in elements:
            write(os.path.join(self.iio, "scan_elements", element + "_en"), 1)
        self.layout, self.size = scan_layout(self.iio)
        write(os.path.join(self.iio, "buffer/length"), 128)
        _, self.enable_seconds = timed(write, os.path.join(self.iio, "buffer/enable"), 1)
        self.fd = os.open(self.dev, os.O_RDONLY | os.O_NONBLOCK)
        self.pending = b""

    def read_for(self, seconds):
        """Every scan that arrives within `seconds`, with its arrival time."""
        scans, deadline = [], time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                break
            self.pending += os.read(self.fd, 4096)
            while len(self.pending) >= self.size:
                scans.append((time.monotonic(), decode_scan(self.layout, self.pending[:self.size])))
                self.pending = self.pending[self.size:]
        return scans

    def close(self):
        os.close(self.fd)
        write(os.path.join(self.iio, "buffer/enable"), 0)
        for entry in os.listdir(os.path.join(self.iio, "scan_elements")):
            if entry.endswith("_en"):
                write(os.path.join(self.iio, "scan_elements", entry), 0)


# --- the checks ---

def load_modules():
    for module in MODULES:
        result = subprocess.run(["modprobe", module], capture_output=True, text=True)
        check(result.returncode == 0, f"modprobe {module}", result.stderr.strip())


def describe_device(key, device):
    """What the kernel made: the attributes, their modes, the scan elements, the trigger."""
    iio = device["iio"]
    entries = []
    for entry in sorted(os.listdir(iio)):
        path = os.path.join(iio, entry)
        if os.path.isfile(path) and entry not in ("uevent", "dev"):
            entries.append(f"{entry}({stat.S_IMODE(os.stat(path).st_mode):o})")
    note(f"{key}: {device['name']} at {iio}")
    note(f"  attributes: {' '.join(entries)}")
    scan = os.path.join(iio, "scan_elements")
    elements = sorted(entry[:-5] for entry in os.listdir(scan) if entry.endswith("_type"))
    note("  scan elements: " + ", ".join(
        f"{name} index {read(os.path.join(scan, name + '_index'))} {read(os.path.join(scan, name + '_type'))}"
        for name in elements))
    note(f"  trigger/current_trigger: {read(os.path.join(iio, 'trigger/current_trigger'))!r}; "
         f"buffer/length {read(os.path.join(iio, 'buffer/length'))}")
    node = os.stat(device["dev"])
    note(f"  {device['dev']}: mode {stat.S_IMODE(node.st_mode):o}, uid {node.st_uid} gid {node.st_gid}")


def scaled(iio, channel, scale_name, offset_name=None):
    raw = int(read(os.path.join(iio, channel)))
    scale = float(read(os.path.join(iio, scale_name)))
    offset = float(read(os.path.join(iio, offset_name))) if offset_name else 0.0
    return (raw + offset) * scale, raw


def accel_reading(iio):
    values = []
    for axis in "xyz":
        value, _ = scaled(iio, f"in_accel_{axis}_raw", "in_accel_scale", "in_accel_offset")
        values.append(value)
    return values


def check_probe(hub):
    devices = hub.send({"devices": True, "timeout": 30}, timeout=40)
    check(not devices["missing"], "every sensor has an IIO device", f"missing {devices['missing']}")
    hid = devices["hid"]
    driver = os.path.basename(os.path.realpath(os.path.join(hid, "driver"))) if hid else None
    check(driver == "hid-sensor-hub", "hid-sensor-hub bound the HID device", f"{hid} driver {driver}")
    note(f"HID device modalias: {read(os.path.join(hid, 'modalias'))}")
    wanted = {"accel": "accel_3d", "als": "als", "prox": "prox", "compass": "magn_3d"}
    for key, device in devices["sensors"].items():
        cell_driver = os.path.basename(os.path.realpath(os.path.join(device["platform"], "driver")))
        check(device["name"] == wanted[key], f"{key} IIO device is named {wanted[key]}",
              f"{device['name']}, platform cell {os.path.basename(device['platform'])} bound to {cell_driver}")
        describe_device(key, device)
    return devices["sensors"]


def check_accel_poses(hub, iio):
    for label, values in (("upright", [0, -9.81, 0]), ("turned", [9.81, 0, 0]), ("flat", [0, 0, -9.81])):
        hub.send({"set": "accel", "values": values})
        read_values, seconds = timed(accel_reading, iio)
        close = all(abs(a - b) <= 0.01 for a, b in zip(read_values, values))
        check(close, f"accel {label} reads back", f"{[round(v, 6) for v in read_values]} in {seconds:.2f} s "
              f"(scale {read(os.path.join(iio, 'in_accel_scale'))}, offset {read(os.path.join(iio, 'in_accel_offset'))})")


def check_light(hub, iio):
    for lux in (0, 123.45, 20000):
        hub.send({"set": "als", "lux": lux})
        (value, raw), seconds = timed(scaled, iio, "in_illuminance_raw", "in_illuminance_scale",
                                      "in_illuminance_offset")
        both, _ = scaled(iio, "in_intensity_both_raw", "in_intensity_scale", "in_intensity_offset")
        check(abs(value - lux) <= 0.01 and abs(both - lux) <= 0.01, f"light {lux} lux reads back",
              f"in_illuminance {raw} -> {value:.2f}, in_intensity_both -> {both:.2f}, {seconds:.2f} s")


def check_proximity(hub, iio):
    for command, expected in (({"near": True}, 1), ({"near": False}, 0), ({"value": 42}, 42)):
        hub.send({"set": "prox", **command})
        raw, seconds = timed(lambda: int(read(os.path.join(iio, "in_proximity_raw"))))
        check(raw == expected, f"proximity {command} reads {expected}",
              f"in_proximity_raw {raw} (scale {read(os.path.join(iio, 'in_proximity_scale'))}), {seconds:.2f} s")


def check_compass(hub, iio):
    for heading in (0, 90, 273):
        hub.send({"set": "compass", "heading": heading, "flux": [0.2, -0.05, 0.4]})
        (value, raw), seconds = timed(scaled, iio, "in_rot_from_north_magnetic_tilt_comp_raw", "in_rot_scale",
                                      "in_rot_offset")
        check(abs(value - heading) < 0.5, f"compass heading {heading}° reads back",
              f"raw {raw} -> {value}, in_rot_scale {read(os.path.join(iio, 'in_rot_scale'))}, {seconds:.2f} s")
    flux, _ = scaled(iio, "in_magn_x_raw", "in_magn_scale", "in_magn_offset")
    check(abs(flux - 0.2) < 0.001, "compass flux x reads back", f"{flux} gauss")


def scans_in(capture, seconds, element_names, scale):
    return [[scan[name] * scale for name in element_names] for _, scan in capture.read_for(seconds)]


def same(a, b, tolerance=1e-4):
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def check_accel_buffer(hub, device):
    iio = device["iio"]
    scale = float(read(os.path.join(iio, "in_accel_scale")))
    axes = ["in_accel_x", "in_accel_y", "in_accel_z"]
    trigger = read(os.path.join(iio, "trigger/current_trigger"))
    check(trigger.startswith("accel_3d-dev"), "the accelerometer's trigger is preset", trigger)
    hub.send({"set": "accel", "values": [0, -9.81, 0]})
    off = wait_for_power_off(hub)
    check(off["power"] == "D4 power off", "the raw reads' power-on has lapsed", f"{off['power']}")
    capture = Capture(device, axes + ["in_timestamp"])
    note(f"scan layout: {[(name, offset, size) for name, offset, size, *_ in capture.layout]}, "
         f"{capture.size} bytes a scan; enabling the buffer took {capture.enable_seconds:.2f} s")
    state = hub.send({"state": "accel"})
    check(state["power"] == "D0 full power" and state["reporting"] == "all events",
          "enabling the buffer powers the sensor", f"{state['power']}, {state['reporting']}")
    still = scans_in(capture, 1.0, axes, scale)
    check(len(still) >= 1 and same(still[0], [0, -9.81, 0]), "the first reading after power-on arrives",
          f"{len(still)} scans in 1 s held still: {still[:3]}")
    check(len(still) == 1, "held still, no more scans (report on change)", f"{len(still)} scans")
    hub.send({"set": "accel", "values": [9.81, 0, 0]})
    moved = scans_in(capture, 0.6, axes, scale)
    check(len(moved) == 1 and same(moved[0], [9.81, 0, 0]), "a change sends one scan", f"{moved}")

    # The driver's writes arrive as SET_REPORT.
    _, seconds = timed(write, os.path.join(iio, "in_accel_sampling_frequency"), 20)
    state = hub.send({"state": "accel"})
    check(state["interval_ms"] == 50, "sampling_frequency 20 arrives as a 50 ms report interval",
          f"interval {state['interval_ms']} ms, written in {seconds:.2f} s, reads back "
          f"{read(os.path.join(iio, 'in_accel_sampling_frequency'))}")
    _, seconds = timed(write, os.path.join(iio, "in_accel_hysteresis"), "0.05")
    state = hub.send({"state": "accel"})
    check(abs(state["sensitivity"]["acceleration"] - 0.05) < 1e-9, "hysteresis 0.05 arrives as the sensitivity",
          f"{state['sensitivity']}, written in {seconds:.2f} s, reads back "
          f"{read(os.path.join(iio, 'in_accel_hysteresis'))}")
    note(f"the driver's SET_REPORTs so far: {json.dumps(state['log'])}")

    hub.send({"set": "accel", "values": [9.84, 0, 0]})
    small = scans_in(capture, 0.5, axes, scale)
    check(not small, "a change of 0.03 under a 0.05 sensitivity sends nothing", f"{small}")
    hub.send({"set": "accel", "values": [9.91, 0, 0]})
    large = scans_in(capture, 0.5, axes, scale)
    check(len(large) == 1 and same(large[0], [9.91, 0, 0]), "a change of 0.1 sends a scan", f"{large}")

    check_trace_playback(hub, capture, axes, scale)
    check_stall(hub, capture, axes, scale, iio)
    capture.close()
    off = wait_for_power_off(hub)
    check(off["power"] == "D4 power off", "disabling the buffer powers the sensor off",
          f"{off['power']}, {off['reporting']}; log: {json.dumps(off['log'][-2:])}")
    check_buffer_while_on(hub, device, axes, scale)


def wait_for_power_off(hub, seconds=6):
    """The sensor's state once the driver has powered it off (runtime PM: 3 s after its last user)."""
    deadline = time.monotonic() + seconds
    while True:
        state = hub.send({"state": "accel"})
        if state["power"] == "D4 power off" or time.monotonic() > deadline:
            return state
        time.sleep(0.1)


def check_buffer_while_on(hub, device, axes, scale):
    """A buffer enabled within 3 s of a raw read finds the sensor still on: no power-on, so no first reading."""
    iio = device["iio"]
    read(os.path.join(iio, "in_accel_x_raw"))
    before = hub.send({"state": "accel"})
    capture = Capture(device, axes)
    scans = scans_in(capture, 1.0, axes, scale)
    capture.close()
    check(before["power"] == "D0 full power" and not scans,
          "a buffer enabled right after a raw read, held still: no scan (the sensor was on already)",
          f"{len(scans)} scans in 1 s, enabling took {capture.enable_seconds:.2f} s")
    wait_for_power_off(hub)


def check_trace_playback(hub, capture, axes, scale):
    path = "/tmp/hub_smoke.trace"
    rows = [(0.1 * i, (round(9.81 * (i % 3 == 0), 5), round(-9.81 * (i % 3 == 1), 5), round(-9.81 * (i % 3 == 2)
                                                                                              + 0.12345 * i, 5)))
            for i in range(12)]
    with open(path, "w", encoding="utf-8") as trace:
        trace.write("# orientd trace v1\n# source: hub_smoke\nt,x,y,z\n")
        trace.writelines(f"{t:.6f},{x:.5f},{y:.5f},{z:.5f}\n" for t, (x, y, z) in rows)
    answer = hub.send({"play": path, "speed": 1})
    scans = scans_in(capture, 1.8, axes, scale)
    expected = [list(values) for _, values in rows]
    exact = all(any(same(scan, want, 1e-9 + scale / 2) for scan in scans) for want in expected)
    check(exact, "a trace played at 10 Hz comes through the buffer row by row, exact to the count",
          f"{answer}; {len(scans)} scans for {len(rows)} rows; first {scans[:2]}")
    state = hub.send({"state": "accel"})
    check(not state["playing"], "the playback ended", f"values now {state['values']}")


def check_stall(hub, capture, axes, scale, iio):
    hub.send({"stall": True})
    hub.send({"set": "accel", "values": [0, 0, 9.81]})
    stalled = scans_in(capture, 0.6, axes, scale)
    check(not stalled, "stalled: no scans", f"{stalled}")
    raw, seconds = timed(lambda: int(read(os.path.join(iio, "in_accel_z_raw"))))
    check(abs(raw * scale - 9.81) < 0.01, "stalled: a raw read is still answered",
          f"{raw} in {seconds:.2f} s")
    extra = scans_in(capture, 0.3, axes, scale)
    note(f"scans after that raw read, while stalled: {extra} (the GET_REPORT's answer goes into the buffer)")
    hub.send({"stall": False})
    resumed = scans_in(capture, 0.6, axes, scale)
    check(len(resumed) >= 1 and same(resumed[-1], [0, 0, 9.81]), "unstalled: the reading goes out", f"{resumed}")


def check_raw_read_power(hub, iio):
    """What a raw sysfs read does to a HID sensor: power on, wait, GET_REPORT, power off after 3 s."""
    hub.send({"set": "accel", "values": [0, -9.81, 0]})
    time.sleep(3.5)
    before = hub.send({"state": "accel"})
    _, first = timed(read, os.path.join(iio, "in_accel_y_raw"))
    _, second = timed(read, os.path.join(iio, "in_accel_y_raw"))
    during = hub.send({"state": "accel"})
    after, seconds = timed(wait_for_power_off, hub, 10)
    note(f"raw read: first after power-off {first:.2f} s, the next {second:.2f} s (interval "
         f"{during['interval_ms']} ms)")
    check(before["power"] == "D4 power off" and during["power"] == "D0 full power"
          and after["power"] == "D4 power off", "a raw read powers the sensor on, and off again ~3 s later",
          f"{before['power']} -> {during['power']} -> {after['power']} {seconds:.1f} s after the read; "
          f"input GET_REPORTs {after['get_reports']['input'] - before['get_reports']['input']}, "
          f"SET_REPORTs {after['set_reports'] - before['set_reports']}, input reports sent "
          f"{after['reports_sent'] - before['reports_sent']}")


def check_other_buffers(hub, sensors):
    for key, values, command in (("als", ["in_intensity_both", "in_illuminance"], {"lux": 321}),
                                 ("compass", ["in_rot_from_north_magnetic_tilt_comp"], {"heading": 123})):
        device = sensors[key]
        hub.send({"set": key, **command})
        elements = [entry[:-3] for entry in os.listdir(os.path.join(device["iio"], "scan_elements"))
                    if entry.endswith("_en")]
        capture = Capture(device, elements)
        scans = capture.read_for(1.0)
        capture.close()
        note(f"{key} buffer, every element enabled: layout "
             f"{[(name, offset, size) for name, offset, size, *_ in capture.layout]}, {capture.size} bytes")
        got = scans[0][1] if scans else {}
        check(bool(scans) and all(got.get(name) is not None for name in values), f"{key} buffered scan",
              f"{len(scans)} scans in 1 s, first {got}")


def check_silent(hub, iio):
    # Every sensor of a hub waits on the same uhid request lock: let the other sensors' power-offs (3 s after
    # their buffers closed) finish, so that what is timed below is this read's own requests.
    time.sleep(4)
    hub.send({"silent": True})
    result, seconds = timed(read, os.path.join(iio, "in_accel_sampling_frequency"))
    # The kernel does not look at the request's outcome: it returns the value it last read, after the timeout.
    check(seconds >= 4.5, "silent: a feature read waits out the 5 s timeout",
          f"returned {result!r} (the cached value) after {seconds:.1f} s")
    box = {}
    reader = threading.Thread(target=lambda: box.update(result=timed(read, os.path.join(iio, "in_accel_x_raw"))),
                              daemon=True)
    reader.start()
    reader.join(120)
    outcome = box.get("result", ("still blocked after 120 s", 120))
    note(f"silent: a raw read returned {outcome[0]!r} after {outcome[1]:.1f} s")
    hub.send({"silent": False})
    time.sleep(3.5)
    value, seconds = timed(read, os.path.join(iio, "in_accel_sampling_frequency"))
    check(not isinstance(value, OSError), "answering again: reads work", f"{value} in {seconds:.2f} s")


def check_replug(hub, sensors):
    old = sensors["accel"]["iio"]
    _, seconds = timed(hub.send, {"unplug": True})
    check(not os.path.exists(old), "unplugged: the IIO devices are gone", f"UHID_DESTROY took {seconds:.2f} s")
    hub.send({"set": "accel", "values": [0, -9.81, 0]})
    start = time.monotonic()
    hub.send({"plug": True})
    devices = hub.send({"devices": True, "timeout": 30}, timeout=40)
    check(not devices["missing"], "plugged again: the IIO devices are back",
          f"in {time.monotonic() - start:.2f} s, accel now {devices['sensors'].get('accel', {}).get('iio')}")
    if "accel" in devices["sensors"]:
        values = accel_reading(devices["sensors"]["accel"]["iio"])
        check(same(values, [0, -9.81, 0], 0.01), "plugged again: the accelerometer reads", f"{values}")
    return devices["sensors"]


def check_variant_hub():
    """A hub as much real hardware is: 16-bit axes in g at 10^-3, reporting at every interval too."""
    hub = HubProcess("--sensors", "accel", "--product", "0x0002", "--every-interval", "--accel-bits", "16",
                     "--accel-unit", "g", "--accel-exponent", "-3")
    try:
        device = hub.send({"devices": True, "timeout": 30}, timeout=40)["sensors"]["accel"]
        iio = device["iio"]
        hub.send({"set": "accel", "values": [0, -9.81, 0]})
        values = accel_reading(iio)
        kind = read(os.path.join(iio, "scan_elements/in_accel_x_type"))
        check(same(values, [0, -9.81, 0], 0.01) and kind == "le:s16/32>>0",
              "16-bit axes in g read back, and scan as le:s16/32",
              f"{values}, in_accel_scale {read(os.path.join(iio, 'in_accel_scale'))}, type {kind}")
        wait_for_power_off(hub)
        axes = ["in_accel_x", "in_accel_y", "in_accel_z"]
        scale = float(read(os.path.join(iio, "in_accel_scale")))
        capture = Capture(device, axes)
        raw = capture.read_for(1.0)
        scans = [[scan[name] * scale for name in axes] for _, scan in raw]
        check(8 <= len(scans) <= 13 and all(same(scan, [0, -9.81, 0], 0.01) for scan in scans),
              "--every-interval: held still, a scan every 100 ms, decoded with the upper half masked",
              f"{len(scans)} scans in 1 s, first {scans[:1]}")
        path = "/tmp/hub_smoke_v2.trace"
        with open(path, "w", encoding="utf-8") as trace:
            trace.write("# orientd trace v2\nt,x,y,z,bx,by,bz\n0.0,0,-9.81,0,1,2,-9\n0.2,0,-9.81,0,-1,-2,9\n")
        answer = hub.send({"play": path, "columns": "base", "loop": True})
        seen = {tuple(round(v, 1) for v in scan) for scan in scans_in(capture, 1.0, axes, scale)}
        playing = hub.send({"state": "accel"})["playing"]
        hub.send({"stop": True})
        check({(1.0, 2.0, -9.0), (-1.0, -2.0, 9.0)} <= seen and playing, "a v2 trace's base columns play in a loop",
              f"{answer}, scans seen {sorted(seen)}")
        capture.close()
    finally:
        hub.close()


def check_udev_mark():
    """A second hub with its own product ID, tagged by a udev rule as the keyboard base."""
    udevd = "/lib/systemd/systemd-udevd"
    if not os.path.exists(udevd):
        note("no systemd-udevd: the udev check is skipped")
        return
    os.makedirs("/run/udev/rules.d", exist_ok=True)
    write("/run/udev/rules.d/99-hub-smoke.rules",
          'SUBSYSTEM=="iio", KERNELS=="*:1209:BA5E.*", ENV{ACCEL_LOCATION}="base"\n')
    subprocess.run([udevd, "--daemon"], check=True)
    subprocess.run(["udevadm", "settle", "-t", "10"])
    base = HubProcess("--sensors", "accel", "--product", "0xBA5E", "--name", "base hub")
    try:
        devices = base.send({"devices": True, "timeout": 30}, timeout=40)
        subprocess.run(["udevadm", "settle", "-t", "10"])
        iio = devices["sensors"]["accel"]["iio"]
        properties = subprocess.run(["udevadm", "info", "-q", "property", "-p", iio], capture_output=True,
                                    text=True).stdout
        check("ACCEL_LOCATION=base" in properties, "udev tags the second hub's accelerometer as the base",
              " ".join(line for line in properties.splitlines() if line.startswith(("ACCEL", "DEVNAME", "SUBSYS"))))
        node = os.stat(devices["sensors"]["accel"]["dev"])
        note(f"under udevd with no other rules: {devices['sensors']['accel']['dev']} mode "
             f"{stat.S_IMODE(node.st_mode):o}")
    finally:
        base.close()
        subprocess.run(["udevadm", "control", "--exit"])


def hid_dmesg():
    lines = subprocess.run(["dmesg"], capture_output=True, text=True).stdout.splitlines()
    return [line for line in lines if any(word in line.lower() for word in ("hid", "sensor", "iio", "uhid"))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-udev", action="store_true")
    parser.add_argument("--no-silent", action="store_true")
    options = parser.parse_args()
    began = time.monotonic()
    print(f"kernel {os.uname().release}", flush=True)
    load_modules()
    hub, seconds = timed(HubProcess)
    check(hub.ready.get("ready") and hub.ready.get("started"), "the hub is created and started",
          f"in {seconds:.2f} s: {json.dumps(hub.ready)}")
    try:
        start = time.monotonic()
        sensors = check_probe(hub)
        note(f"the IIO devices were there {time.monotonic() - start:.2f} s after ready")
        check_accel_poses(hub, sensors["accel"]["iio"])
        check_light(hub, sensors["als"]["iio"])
        check_proximity(hub, sensors["prox"]["iio"])
        check_compass(hub, sensors["compass"]["iio"])
        check_accel_buffer(hub, sensors["accel"])
        check_raw_read_power(hub, sensors["accel"]["iio"])
        check_other_buffers(hub, sensors)
        if not options.no_silent:
            check_silent(hub, sensors["accel"]["iio"])
        sensors = check_replug(hub, sensors)
        note(f"uhid events the hub saw: {hub.send({'events': True})['events']}")
    finally:
        hub.close()
    check_variant_hub()
    if not options.no_udev:
        check_udev_mark()
    problems = [line for line in hid_dmesg() if any(word in line.lower() for word in ("fail", "error", "unable"))]
    check(not problems, "dmesg has no HID or IIO failures", "; ".join(problems[:10]))
    print("dmesg (HID, sensors, IIO):", flush=True)
    for line in hid_dmesg()[-25:]:
        note(line)
    print(f"{'FAILED: ' + ', '.join(failures) if failures else 'ALL PASSED'} in {time.monotonic() - began:.1f} s",
          flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
