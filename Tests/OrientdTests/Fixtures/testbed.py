#!/usr/bin/python3
"""A umockdev testbed driven by JSON lines on standard input, for orientd's live-sensor tests.

Prints {"root": DIR} first; a child started with LD_PRELOAD=libumockdev-preload.so.0 and UMOCKDEV_DIR=DIR sees
the emulated devices. Commands, one JSON object a line, each answered with one JSON line:
  {"add": NAME, "attributes": {...}, "properties": {...}}  -> {"path": SYSFS_PATH}
                       an IIO device; with "subsystem": "drm", a display connector such as card0-eDP-1;
                       ("parent": SYSFS_PATH puts it under that device)
  {"hold": PATH, "values": {ATTRIBUTE: NUMBER, ...}, "noise": N, "period": S}   sets each attribute to its value
                       plus uniform noise in [-N, N] (rounded to an integer) at once, then from a thread every S
                       seconds until the next "hold" for PATH replaces it; "period": 0 sets them once. (umockdev
                       replaces an attribute file by a rename, so a reader listing the directory meanwhile, as
                       libiio does when it opens a device, may see the temporary file vanish.) -> {"ok": true}
  {"set": PATH, "attribute": NAME, "value": TEXT}          -> {"ok": true}
  {"remove": PATH}                                          -> {"ok": true}
  {"stage": NAME, "attributes": {...}, "properties": {...}}  an IIO device's sysfs folder written by hand, with
                       no uevent: a device whose folder is still being filled when udev has not announced it yet.
                       {"uevent": PATH, "action": "add"} announces it               -> {"path": SYSFS_PATH}
  {"unlink": PATH, "attribute": NAME}   deletes one attribute file, with no uevent: a device vanishing
                       under a reader before udev says so                    -> {"ok": true}
  {"describe": TEXT}   umockdev's text form; an N: line without contents gets a PTY as /dev node -> {"ok": true}
  {"stream": DEVNODE, "scan": HEX, "count": N, "rate": HZ}   writes N copies of the scan to /dev/... at
                       HZ from a thread; "{t}" in HEX is replaced by a little-endian 64-bit nanosecond timestamp
                       that advances by 1/HZ per scan from 1 s, or with "clock": NAME (e.g. "realtime") by
                       that clock's time at the write                          -> {"ok": true}
  {"hangup": DEVNODE}  closes the testbed's side of a PTY device node: a reader then gets end of file, as from a
                       device whose buffer went away before udev says so          -> {"ok": true}
  {"uinput": true}     an emulated /dev/uinput that records what is asked of it -> {"ok": true}
  {"uinput-log": true} what it was asked, in order: {"ioctl": NAME, "value": N}, {"ioctl": "UI_DEV_SETUP",
                       "name": NAME}, {"event": [TYPE, CODE, VALUE]} for each input_event written -> {"log": [...]}
  {"lid": CLOSED}      an emulated lid switch, /dev/input/event7 (SW_LID in capabilities/sw), reading shut
                       (true) or open; EVIOCGSW answers its state                -> {"ok": true}
  {"tablet-mode-switch": NAME}  an input device reporting SW_TABLET_MODE (its parent's capabilities/sw), named
                       NAME, /dev/input/event6: the machine's own switch, as intel-vbtn makes one -> {"ok": true}
  {"lid-set": CLOSED}  the lid shut or opened: the state, and an EV_SW/SW_LID event and a SYN_REPORT written
                       for a reader of the node                                   -> {"ok": true}
  {"proximity-switch": NEAR}  an emulated gpio-keys proximity switch, /dev/input/event4 (SW_FRONT_PROXIMITY in
                       its parent's capabilities/sw), reading near (true) or not; EVIOCGSW answers it -> {"ok": true}
  {"proximity-switch-set": NEAR}  the switch set or cleared                   -> {"ok": true}
  {"input-accel": [X, Y, Z], "properties": {...}}  an emulated evdev accelerometer, /dev/input/event9
                       (ID_INPUT_ACCELEROMETER), whose EVIOCGABS answers ABS_X, ABS_Y and ABS_Z with these values;
                       with null instead of the values, it answers no EVIOCGABS at all       -> {"path": SYSFS_PATH}
  {"input-accel-set": [X, Y, Z]}  the axes' new values                       -> {"ok": true}
Attribute values are written as given: libiio expects sysfs values to end in a newline.
"""
import json
import os
import random
import struct
import sys
import threading
import time

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

testbed = UMockdev.Testbed.new()
print(json.dumps({"root": testbed.get_root_dir()}), flush=True)

# linux/uinput.h's requests on x86_64 (_IOW('U', n, size) and _IO('U', n)), and struct input_event's layout.
UINPUT_REQUESTS = {0x40045564: "UI_SET_EVBIT", 0x4004556D: "UI_SET_SWBIT", 0x405C5503: "UI_DEV_SETUP",
                   0x5501: "UI_DEV_CREATE", 0x5502: "UI_DEV_DESTROY"}
INPUT_EVENT = struct.Struct("qqHHi")
uinput_log = []
uinput_lock = threading.Lock()


def uinput_ioctl(handler, client):
    """Called on umockdev's worker thread for each ioctl on /dev/uinput."""
    request = client.get_request()
    name = UINPUT_REQUESTS.get(request)
    if name is None:
        client.complete(-1, 25)  # ENOTTY, as the kernel answers an unknown request
        return True
    arg = client.get_arg()
    if name == "UI_DEV_SETUP":
        raw = bytes(arg.resolve(0, 92).retrieve())  # struct uinput_setup: input_id, name[80], ff_effects_max
        entry = {"ioctl": name, "name": raw[8:88].split(b"\0")[0].decode()}
    else:
        entry = {"ioctl": name, "value": struct.unpack("Q", bytes(arg.retrieve())[:8])[0]}
    with uinput_lock:
        uinput_log.append(entry)
    client.complete(0, 0)
    return True


def uinput_write(handler, client):
    raw = bytes(client.get_arg().retrieve())
    with uinput_lock:
        for offset in range(0, len(raw) - INPUT_EVENT.size + 1, INPUT_EVENT.size):
            _, _, kind, code, value = INPUT_EVENT.unpack_from(raw, offset)
            uinput_log.append({"event": [kind, code, value]})
    client.complete(len(raw), 0)
    return True


LID_NODE = "/dev/input/event7"
lid_state = {"closed": False}
PROXIMITY_NODE = "/dev/input/event4"
proximity_state = {"near": False}


def switch_handler(bit, is_set):
    """An ioctl handler answering EVIOCGSW(len), _IOC(_IOC_READ, 'E', 0x1b, len): switch `bit` of the bitmask set
    while is_set() holds, every other switch clear. Anything else (and every read) falls through to the node, a PTY
    the testbed writes events into."""
    def answer(handler, client):
        request = client.get_request()
        if request & 0xFFFF != 0x451B or request >> 30 != 2:
            return False
        length = (request >> 16) & 0x3FFF
        bitmask = bytearray(length)
        if is_set() and bit // 8 < length:
            bitmask[bit // 8] = 1 << (bit % 8)
        client.get_arg().resolve(0, length).update(0, bytes(bitmask))
        client.complete(length, 0)
        return True

    handler = UMockdev.IoctlBase()
    handler.connect("handle-ioctl", answer)
    return handler


def absolute_handler(values):
    """An ioctl handler answering EVIOCGABS(axis), _IOR('E', 0x40 + axis, struct input_absinfo), for ABS_X, ABS_Y
    and ABS_Z: the axis's value from values(), in -512..512 (six ints: value, minimum, maximum, fuzz, flat,
    resolution). Anything else falls through to the node."""
    def answer(handler, client):
        request = client.get_request()
        axis = (request & 0xFF) - 0x40
        if request & 0xFF00 != 0x4500 or request >> 30 != 2 or (request >> 16) & 0x3FFF != 24 or not 0 <= axis <= 2:
            return False
        info = struct.pack("6i", values()[axis], -512, 512, 0, 0, 0)
        client.get_arg().resolve(0, len(info)).update(0, info)
        client.complete(0, 0)
        return True

    handler = UMockdev.IoctlBase()
    handler.connect("handle-ioctl", answer)
    return handler


def add_input_device(platform, number, parent_attributes, properties=None):
    """An input event device /dev/input/eventN under platform device `platform` (its node a PTY the testbed writes
    events into), with udev `properties`, and its parent input device with `parent_attributes`; returns the event
    device's sysfs path."""
    parent = f"/devices/platform/{platform}/input/input{number}"
    event = [f"P: {parent}/event{number}", f"N: input/event{number}", "E: SUBSYSTEM=input",
             f"E: DEVNAME=/dev/input/event{number}"] + [f"E: {name}={value}" for name, value in (properties or {}).items()]
    device = [f"P: {parent}", "E: SUBSYSTEM=input"] + [f"A: {name}={value}" for name, value in parent_attributes.items()]
    testbed.add_from_string("\n".join(event) + "\n\n" + "\n".join(device) + "\n")
    return f"/sys{parent}/event{number}"


ACCEL_NODE = "/dev/input/event9"
accel_axes = {"values": [0, -256, 0]}
accel_handler = absolute_handler(lambda: accel_axes["values"])
lid_handler = switch_handler(0, lambda: lid_state["closed"])  # SW_LID
proximity_handler = switch_handler(11, lambda: proximity_state["near"])  # SW_FRONT_PROXIMITY

# The "hold" threads: the generation each device's current one runs under; a newer one, or removal, stops it.
holds = {}
hold_lock = threading.Lock()

uinput_handler = UMockdev.IoctlBase()
uinput_handler.connect("handle-ioctl", uinput_ioctl)
uinput_handler.connect("handle-write", uinput_write)
for line in sys.stdin:
    command = json.loads(line)
    if "add" in command:
        attributes = [item for pair in command.get("attributes", {}).items() for item in pair]
        properties = [item for pair in command.get("properties", {}).items() for item in pair]
        path = testbed.add_device(
            command.get("subsystem", "iio"), command["add"], command.get("parent"), attributes, properties)
        print(json.dumps({"path": path}), flush=True)
    elif "set" in command:
        testbed.set_attribute(command["set"], command["attribute"], command["value"])
        print(json.dumps({"ok": True}), flush=True)
    elif "hold" in command:
        with hold_lock:
            generation = holds.get(command["hold"], 0) + 1
            holds[command["hold"]] = generation

        def hold_once(path, values, noise, generation):
            for attribute, value in values.items():
                jittered = round(value + random.uniform(-noise, noise))
                with hold_lock:
                    if holds.get(path) != generation:
                        return False
                    testbed.set_attribute(path, attribute, f"{jittered}\n")
            return True

        def hold(path=command["hold"], values=command["values"], noise=command.get("noise", 0),
                 period=command["period"], generation=generation):
            while hold_once(path, values, noise, generation):
                time.sleep(period)

        hold_once(command["hold"], command["values"], command.get("noise", 0), generation)
        if command["period"] > 0:
            threading.Thread(target=hold, daemon=True).start()
        print(json.dumps({"ok": True}), flush=True)
    elif "remove" in command:
        with hold_lock:
            holds[command["remove"]] = -1
        # The kernel announces a removal; umockdev's remove_device alone does not.
        testbed.uevent(command["remove"], "remove")
        testbed.remove_device(command["remove"])
        print(json.dumps({"ok": True}), flush=True)
    elif "uevent" in command:
        # An event alone, sysfs left as it is: the moment between a removal's event and its folder going, stretched.
        testbed.uevent(command["uevent"], command["action"])
        print(json.dumps({"ok": True}), flush=True)
    elif "stage" in command:
        path = "/sys/devices/" + command["stage"]
        folder = os.path.join(testbed.get_root_dir(), path.lstrip("/"))
        os.makedirs(folder)
        for name, value in command.get("attributes", {}).items():
            with open(os.path.join(folder, name), "w") as file:
                file.write(value)
        with open(os.path.join(folder, "uevent"), "w") as file:
            file.writelines(f"{name}={value}\n" for name, value in command.get("properties", {}).items())
        os.symlink("../../bus/iio", os.path.join(folder, "subsystem"))
        bus_devices = os.path.join(testbed.get_root_dir(), "sys/bus/iio/devices")
        os.makedirs(bus_devices, exist_ok=True)
        os.symlink("../../../devices/" + command["stage"], os.path.join(bus_devices, command["stage"]))
        print(json.dumps({"path": path}), flush=True)
    elif "unlink" in command:
        os.remove(os.path.join(testbed.get_root_dir(), command["unlink"].lstrip("/"), command["attribute"]))
        print(json.dumps({"ok": True}), flush=True)
    elif "describe" in command:
        testbed.add_from_string(command["describe"])
        print(json.dumps({"ok": True}), flush=True)
    elif "hangup" in command:
        os.close(testbed.get_dev_fd(command["hangup"]))
        print(json.dumps({"ok": True}), flush=True)
    elif "uinput" in command:
        testbed.add_from_string("P: /devices/virtual/misc/uinput\nN: uinput\nE: SUBSYSTEM=misc\nE: DEVNAME=/dev/uinput\n")
        testbed.attach_ioctl("/dev/uinput", uinput_handler)
        print(json.dumps({"ok": True}), flush=True)
    elif "lid" in command:
        lid_state["closed"] = command["lid"]
        add_input_device("PNP0C0D:00", 7, {"name": "Lid Switch", "capabilities/sw": "1"})
        testbed.attach_ioctl(LID_NODE, lid_handler)
        print(json.dumps({"ok": True}), flush=True)
    elif "tablet-mode-switch" in command:
        add_input_device("INT33D6:00", 6, {"name": command["tablet-mode-switch"], "capabilities/sw": "2"})
        print(json.dumps({"ok": True}), flush=True)
    elif "proximity-switch" in command:
        proximity_state["near"] = command["proximity-switch"]
        add_input_device("gpio_keys", 4, {"name": "gpio-keys", "capabilities/sw": "800"})
        testbed.attach_ioctl(PROXIMITY_NODE, proximity_handler)
        print(json.dumps({"ok": True}), flush=True)
    elif "input-accel" in command:
        path = add_input_device("lis3lv02d", 9, {"name": "ST LIS3LV02DL Accelerometer"},
                                {"ID_INPUT": "1", "ID_INPUT_ACCELEROMETER": "1", **command.get("properties", {})})
        if command["input-accel"] is not None:
            accel_axes["values"] = command["input-accel"]
            testbed.attach_ioctl(ACCEL_NODE, accel_handler)
        print(json.dumps({"path": path}), flush=True)
    elif "input-accel-set" in command:
        accel_axes["values"] = command["input-accel-set"]
        print(json.dumps({"ok": True}), flush=True)
    elif "proximity-switch-set" in command:
        proximity_state["near"] = command["proximity-switch-set"]
        print(json.dumps({"ok": True}), flush=True)
    elif "lid-set" in command:
        lid_state["closed"] = command["lid-set"]
        event = INPUT_EVENT.pack(0, 0, 5, 0, 1 if command["lid-set"] else 0) + INPUT_EVENT.pack(0, 0, 0, 0, 0)
        os.write(testbed.get_dev_fd(LID_NODE), event)
        print(json.dumps({"ok": True}), flush=True)
    elif "uinput-log" in command:
        with uinput_lock:
            print(json.dumps({"log": uinput_log}), flush=True)
    elif "stream" in command:
        fd = testbed.get_dev_fd(command["stream"])

        def stream(fd=fd, scan=command["scan"], count=command["count"], rate=command["rate"],
                   clock=command.get("clock")):
            for index in range(count):
                nanoseconds = (time.clock_gettime_ns(getattr(time, "CLOCK_" + clock.upper())) if clock
                               else 1_000_000_000 + index * int(1e9 / rate))
                stamp = struct.pack("<q", nanoseconds).hex()
                os.write(fd, bytes.fromhex(scan.replace("{t}", stamp)))
                time.sleep(1 / rate)

        threading.Thread(target=stream, daemon=True).start()
        print(json.dumps({"ok": True}), flush=True)
