#!/usr/bin/python3
"""A umockdev testbed driven by JSON lines on standard input, for orientd's live-sensor tests.

Prints {"root": DIR} first; a child started with LD_PRELOAD=libumockdev-preload.so.0 and UMOCKDEV_DIR=DIR sees
the emulated devices. Commands, one JSON object a line, each answered with one JSON line:
  {"add": NAME, "attributes": {...}, "properties": {...}}  -> {"path": SYSFS_PATH}
  {"set": PATH, "attribute": NAME, "value": TEXT}          -> {"ok": true}
  {"remove": PATH}                                          -> {"ok": true}
  {"describe": TEXT}   umockdev's text form; an N: line without contents gets a PTY as /dev node -> {"ok": true}
  {"stream": DEVNODE, "scan": HEX, "count": N, "rate": HZ}   writes N copies of the scan to /dev/... at
                       HZ from a thread; "{t}" in HEX is replaced by a little-endian 64-bit nanosecond timestamp
                       that advances by 1/HZ per scan from 1 s, or with "clock": NAME (e.g. "realtime") by
                       that clock's time at the write                          -> {"ok": true}
Attribute values are written as given: libiio expects sysfs values to end in a newline.
"""
import json
import os
import struct
import sys
import threading
import time

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

testbed = UMockdev.Testbed.new()
print(json.dumps({"root": testbed.get_root_dir()}), flush=True)
for line in sys.stdin:
    command = json.loads(line)
    if "add" in command:
        attributes = [item for pair in command.get("attributes", {}).items() for item in pair]
        properties = [item for pair in command.get("properties", {}).items() for item in pair]
        path = testbed.add_device("iio", command["add"], None, attributes, properties)
        print(json.dumps({"path": path}), flush=True)
    elif "set" in command:
        testbed.set_attribute(command["set"], command["attribute"], command["value"])
        print(json.dumps({"ok": True}), flush=True)
    elif "remove" in command:
        # The kernel announces a removal; umockdev's remove_device alone does not.
        testbed.uevent(command["remove"], "remove")
        testbed.remove_device(command["remove"])
        print(json.dumps({"ok": True}), flush=True)
    elif "describe" in command:
        testbed.add_from_string(command["describe"])
        print(json.dumps({"ok": True}), flush=True)
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
