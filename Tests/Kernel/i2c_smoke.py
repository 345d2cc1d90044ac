#!/usr/bin/python3
"""Smoke test of i2c_sensors.py against the real kernel's drivers: run as root inside the guest (i2c_smoke.sh boots
one). Drives i2c_sensors.py through its JSON lines, as a test harness would, and checks what sysfs and libiio read:
  - each part binds (no probe failure in the kernel log) and its IIO device appears; its facts are printed;
  - the accelerometers read upright (0, -9.81, 0), turned (9.81, 0, 0) and flat (0, 0, -9.81) within one count ×
    in_accel_scale; light and proximity read what was set;
  - a device removed and added again reads right;
  - a trace played sets the registers over time, in order and on time; a v2 trace sets the base sensor too;
  - libiio (libiio.so.0 through ctypes, when installed) lists the devices and reads the axes.
Prints what it saw; exits 0 when every check passed.
"""
import ctypes
import ctypes.util
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEMO_TRACE = os.path.join(HERE, "..", "..", "Traces", "demo.trace")
ACCELEROMETERS = ["kxcjk1013", "bmc150_accel", "mxc4005"]
LIGHT_AND_PROXIMITY = ["ltr501", "stk3310", "vcnl4040"]
POSES = {"upright": [0.0, -9.81, 0.0], "turned": [9.81, 0.0, 0.0], "flat": [0.0, 0.0, -9.81]}
failures = []


def check(ok, what, detail=""):
    print(f"  {'ok  ' if ok else 'FAIL'} {what}" + (f": {detail}" if detail else ""))
    if not ok:
        failures.append(what)


def section(title):
    print(f"\n== {title}")


def read_attribute(path, name):
    with open(os.path.join(path, name)) as file:
        return file.read().strip()


def kernel_log():
    return subprocess.run(["dmesg"], capture_output=True, text=True).stdout.splitlines()


class Control:
    """i2c_sensors.py in a child process, one JSON line out and one back per command."""

    def __init__(self):
        self.process = subprocess.Popen(["/usr/bin/python3", os.path.join(HERE, "i2c_sensors.py")],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.ready = json.loads(self.process.stdout.readline())

    def ask(self, command):
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)


def timed(action):
    start = time.monotonic()
    result = action()
    return result, time.monotonic() - start


def read_accel(path):
    scale = float(read_attribute(path, "in_accel_scale"))
    return [int(read_attribute(path, f"in_accel_{axis}_raw")) * scale for axis in "xyz"], scale


def add_part(control, part, **extra):
    """Adds a part and checks that it bound cleanly; returns its reply (None when it did not bind)."""
    before = len(kernel_log())
    reply, seconds = timed(lambda: control.ask({"add": part, **extra}))
    if "error" in reply:
        check(False, f"{part} binds", reply["error"])
        return None
    client = os.path.basename(reply["client"])
    new_lines = kernel_log()[before:]
    failed = [line for line in new_lines if client in line and ("fail" in line or "error" in line.lower())]
    check(not failed, f"{part} binds at {client}, IIO {reply['id']} named {reply['name']!r} ({seconds:.2f} s)",
          "; ".join(failed))
    for line in new_lines:
        if client in line:
            print(f"       kernel: {line.split('] ', 1)[-1]}")
    return reply


def print_facts(control, reply):
    described = control.ask({"describe": reply["id"]})
    for name, value in described["attributes"].items():
        if name not in ("dev", "current_timestamp_clock"):
            print(f"       {name} = {value}")
    folder = reply["path"]
    extras = [name for name in ("buffer", "scan_elements", "trigger", "events") if os.path.isdir(f"{folder}/{name}")]
    print(f"       folders: {', '.join(extras) or 'none'}")


def check_poses(control, reply):
    for pose, values in POSES.items():
        answer = control.ask({"set": reply["id"], "accel": values})
        (read, scale), seconds = timed(lambda: read_accel(reply["path"]))
        worst = max(abs(got - wanted) for got, wanted in zip(read, values))
        check(worst <= scale, f"{reply['part']} {pose}",
              f"set {values}, raw {answer['raw']}, reads [{', '.join(f'{v:.5f}' for v in read)}] "
              f"(off by {worst:.5f} ≤ {scale}; read in {seconds * 1000:.0f} ms)")


def print_registers(control, reply, when):
    registers = control.ask({"registers": reply["id"]})["registers"]
    print(f"       registers {when}: " + " ".join(f"{name}={value}" for name, value in registers.items()))
    return registers


def check_cold_read(control, reply, attribute):
    """A read after 2.5 s idle: drivers with runtime PM power the part down meanwhile and up again first."""
    time.sleep(2.5)
    idle = control.ask({"registers": reply["id"]})["registers"]
    _, cold = timed(lambda: read_attribute(reply["path"], attribute))
    _, warm = timed(lambda: read_attribute(reply["path"], attribute))
    after = control.ask({"registers": reply["id"]})["registers"]
    names = sorted(set(idle) | set(after))
    changed = {name: f"{idle.get(name, '0')}→{after.get(name, '0')}" for name in names if idle.get(name) != after.get(name)}
    print(f"       {attribute} after 2.5 s idle: {cold * 1000:.0f} ms; right after: {warm * 1000:.0f} ms; "
          f"registers the read changed: {changed or 'none'}")


def check_scale_change(control, reply):
    """The values set follow the scale the driver publishes: a written in_accel_scale changes the counts."""
    path = reply["path"]
    scales = read_attribute(path, "in_accel_scale_available").split()
    default = read_attribute(path, "in_accel_scale")
    other = next(scale for scale in scales if float(scale) != float(default))
    with open(os.path.join(path, "in_accel_scale"), "w") as file:
        file.write(other)
    answer = control.ask({"set": reply["id"], "accel": POSES["upright"]})
    values, scale = read_accel(path)
    check(answer["scale"] == float(other) and abs(values[1] + 9.81) <= scale,
          f"{reply['part']} upright at in_accel_scale {other} (written; {default} before)",
          f"raw {answer['raw']}, reads {values[1]:.5f}")
    with open(os.path.join(path, "in_accel_scale"), "w") as file:
        file.write(default)


def check_light_and_proximity(control, reply):
    path = reply["path"]
    lux = control.ask({"set": reply["id"], "lux": 120})
    attributes = os.listdir(path)
    if "in_illuminance_input" in attributes:
        read = float(read_attribute(path, "in_illuminance_input"))
        tolerance, how = 0, "in_illuminance_input"
    else:
        scale = float(read_attribute(path, "in_illuminance_scale"))
        read = int(read_attribute(path, "in_illuminance_raw")) * scale
        tolerance, how = scale / 2, f"in_illuminance_raw × {scale}"
    check(abs(read - 120) <= tolerance + 1e-9, f"{reply['part']} light 120 lux",
          f"registers {lux.get('registers')}, {how} reads {read:g}")
    if "in_intensity_both_raw" in attributes:
        print(f"       in_intensity_both_raw = {read_attribute(path, 'in_intensity_both_raw')}, "
              f"in_intensity_ir_raw = {read_attribute(path, 'in_intensity_ir_raw')}")
    for raw in (300, 20):
        control.ask({"set": reply["id"], "proximity": raw})
        read = int(read_attribute(path, "in_proximity_raw"))
        check(read == raw, f"{reply['part']} proximity {raw}", f"in_proximity_raw reads {read}")


def pose_of(values, scale):
    for pose, wanted in POSES.items():
        if max(abs(got - want) for got, want in zip(values, wanted)) <= scale:
            return pose
    return "other"


def watch_poses(path, seconds, interval=0.05):
    """The pose read every interval for `seconds`: [(time from start, pose)] at each change."""
    changes, start = [], time.monotonic()
    while time.monotonic() - start < seconds:
        values, scale = read_accel(path)
        pose = pose_of(values, scale)
        if not changes or changes[-1][1] != pose:
            changes.append((time.monotonic() - start, pose))
        time.sleep(interval)
    return changes


def write_trace(lines, base=False):
    header = "# orientd trace v2\nt,x,y,z,bx,by,bz\n" if base else "# orientd trace v1\n# source: i2c_smoke\nt,x,y,z\n"
    file = tempfile.NamedTemporaryFile("w", suffix=".trace", delete=False)
    file.write(header + "".join(",".join(str(value) for value in line) + "\n" for line in lines))
    file.close()
    return file.name


def check_trace(control, display, base):
    # Upright, then turned at 2 s and flat at 4 s of trace time, played at speed 2: changes at 1 s and 2 s.
    trace = write_trace([(0.0, *POSES["upright"]), (2.0, *POSES["turned"]), (4.0, *POSES["flat"])])
    answer = control.ask({"play": trace, "device": display["id"], "speed": 2})
    changes = watch_poses(display["path"], 2.8)
    print(f"       play: {answer}; seen: " + ", ".join(f"{pose} at {at:.2f} s" for at, pose in changes))
    poses = [pose for _, pose in changes if pose != "other"]
    check(poses[-3:] == ["upright", "turned", "flat"], "trace plays its poses in order", " → ".join(poses))
    times = {pose: at for at, pose in changes}
    on_time = abs(times.get("turned", -9) - 1.0) < 0.35 and abs(times.get("flat", -9) - 2.0) < 0.35
    check(on_time, "trace lines land at their time / speed (±0.35 s)",
          f"turned at {times.get('turned', float('nan')):.2f} s (1.0), flat at {times.get('flat', float('nan')):.2f} s (2.0)")

    two = write_trace([(0.0, *POSES["upright"], *POSES["flat"]), (0.5, *POSES["turned"], *POSES["upright"])], base=True)
    answer = control.ask({"play": two, "device": display["id"], "base": base["id"], "wait": True})
    display_pose = pose_of(*read_accel(display["path"]))
    base_pose = pose_of(*read_accel(base["path"]))
    check(display_pose == "turned" and base_pose == "upright", "a v2 trace sets the display and the base",
          f"{answer}; display {display_pose}, base {base_pose}")

    if os.path.exists(DEMO_TRACE):
        answer, seconds = timed(lambda: control.ask({"play": DEMO_TRACE, "device": display["id"], "speed": 10,
                                                     "wait": True}))
        check("error" not in answer and answer.get("late", 9) < 0.5,
              "Traces/demo.trace at speed 10 (500 lines a second)", f"{answer}, took {seconds:.2f} s")
    for path in (trace, two):
        os.remove(path)


def check_remove_and_add(control, reply):
    control.ask({"remove": reply["id"]})
    gone = not os.path.exists(reply["path"]) and not os.path.exists(reply["client"])
    check(gone, f"{reply['part']} removed", f"{reply['path']} and {reply['client']} gone")
    again = add_part(control, reply["part"], address=reply["address"], accel=POSES["turned"])
    if again is None:
        return reply
    values, scale = read_accel(again["path"])
    check(pose_of(values, scale) == "turned", f"{reply['part']} added again reads turned",
          f"{again['id']} reads [{', '.join(f'{v:.4f}' for v in values)}]")
    return again


def libiio_view(expected):
    """The devices libiio's local context sees, with an accelerometer's axes read through it."""
    name = ctypes.util.find_library("iio") or "libiio.so.0"
    try:
        iio = ctypes.CDLL(name)
    except OSError:
        print("  (libiio is not installed: skipped)")
        return
    iio.iio_create_local_context.restype = ctypes.c_void_p
    iio.iio_context_get_devices_count.argtypes = [ctypes.c_void_p]
    iio.iio_context_get_device.restype = ctypes.c_void_p
    iio.iio_context_get_device.argtypes = [ctypes.c_void_p, ctypes.c_uint]
    for function in ("iio_device_get_id", "iio_device_get_name", "iio_channel_get_id", "iio_device_get_attr",
                     "iio_channel_get_attr"):
        getattr(iio, function).restype = ctypes.c_char_p
    iio.iio_device_get_id.argtypes = iio.iio_device_get_name.argtypes = [ctypes.c_void_p]
    iio.iio_device_get_channels_count.argtypes = [ctypes.c_void_p]
    iio.iio_device_get_attrs_count.argtypes = [ctypes.c_void_p]
    iio.iio_device_get_attr.argtypes = [ctypes.c_void_p, ctypes.c_uint]
    iio.iio_device_get_channel.restype = ctypes.c_void_p
    iio.iio_device_get_channel.argtypes = [ctypes.c_void_p, ctypes.c_uint]
    iio.iio_channel_get_id.argtypes = [ctypes.c_void_p]
    iio.iio_channel_get_attrs_count.argtypes = [ctypes.c_void_p]
    iio.iio_channel_get_attr.argtypes = [ctypes.c_void_p, ctypes.c_uint]
    iio.iio_channel_attr_read.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t]
    iio.iio_context_destroy.argtypes = [ctypes.c_void_p]
    context = iio.iio_create_local_context()
    if not context:
        check(False, "libiio local context", f"errno {ctypes.get_errno()}")
        return
    seen = {}
    for index in range(iio.iio_context_get_devices_count(context)):
        device = iio.iio_context_get_device(context, index)
        device_id = iio.iio_device_get_id(device).decode()
        name = (iio.iio_device_get_name(device) or b"").decode()
        seen[device_id] = name
        attributes = [iio.iio_device_get_attr(device, i).decode() for i in range(iio.iio_device_get_attrs_count(device))]
        channels = []
        for channel_index in range(iio.iio_device_get_channels_count(device)):
            channel = iio.iio_device_get_channel(device, channel_index)
            channel_id = iio.iio_channel_get_id(channel).decode()
            channel_attributes = [iio.iio_channel_get_attr(channel, i).decode()
                                  for i in range(iio.iio_channel_get_attrs_count(channel))]
            text = f"{channel_id}({' '.join(channel_attributes)})"
            if channel_id.startswith("accel_") and "raw" in channel_attributes:
                buffer = ctypes.create_string_buffer(64)
                iio.iio_channel_attr_read(channel, b"raw", buffer, 64)
                text += f" raw={buffer.value.decode().strip()}"
            channels.append(text)
        print(f"  {device_id} {name!r}: device attributes [{' '.join(attributes)}]")
        print(f"       channels: {'; '.join(channels)}")
    iio.iio_context_destroy(context)
    for reply in expected:
        check(seen.get(reply["id"]) == reply["name"], f"libiio sees {reply['id']} as {reply['name']!r}",
              f"sees {seen.get(reply['id'])!r}")


def main():
    started = time.monotonic()
    print(f"kernel {os.uname().release}, python {sys.version.split()[0]}")
    control = Control()
    print(f"i2c_sensors.py ready: {control.ready}")
    devices = {}

    section("Accelerometers")
    for part in ACCELEROMETERS:
        reply = add_part(control, part)
        if reply is None:
            continue
        devices[part] = reply
        print_facts(control, reply)
        print_registers(control, reply, "after probe")
        check_poses(control, reply)
        check_cold_read(control, reply, "in_accel_x_raw")
        if "in_accel_scale_available" in os.listdir(reply["path"]):
            check_scale_change(control, reply)

    section("Light and proximity")
    for part in LIGHT_AND_PROXIMITY:
        reply = add_part(control, part)
        if reply is None:
            continue
        devices[part] = reply
        print_facts(control, reply)
        print_registers(control, reply, "after probe")
        check_light_and_proximity(control, reply)
        check_cold_read(control, reply, "in_illuminance_raw" if part != "ltr501" else "in_illuminance_input")

    section("Remove and add again")
    if "kxcjk1013" in devices:
        devices["kxcjk1013"] = check_remove_and_add(control, devices["kxcjk1013"])

    section("Traces")
    if "kxcjk1013" in devices and "bmc150_accel" in devices:
        check_trace(control, devices["kxcjk1013"], devices["bmc150_accel"])

    section("Two sensors on one driver: a convertible's display and base")
    if "kxcjk1013" in devices:
        base = add_part(control, "kxcjk1013", address=0x0F)
        if base is not None:
            control.ask({"set": devices["kxcjk1013"]["id"], "accel": POSES["upright"]})
            control.ask({"set": base["id"], "accel": POSES["flat"]})
            display_pose = pose_of(*read_accel(devices["kxcjk1013"]["path"]))
            base_pose = pose_of(*read_accel(base["path"]))
            check(display_pose == "upright" and base_pose == "flat", "each reads its own registers",
                  f"{devices['kxcjk1013']['id']} {display_pose}, {base['id']} {base_pose}")
            devices["kxcjk1013 base"] = base

    section("libiio")
    libiio_view(list(devices.values()))

    control.close()
    print(f"\n{len(failures)} failed" + (f": {', '.join(failures)}" if failures else "") +
          f"; {time.monotonic() - started:.1f} s in the guest")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
