#!/usr/bin/python3
"""A umockdev testbed driven by JSON lines on standard input, for orientd's live-sensor tests.

Prints {"root": DIR} first; a child started with LD_PRELOAD=libumockdev-preload.so.0 and UMOCKDEV_DIR=DIR sees
the emulated devices. Commands, one JSON object a line, each answered with one JSON line:
  {"add": NAME, "attributes": {...}, "properties": {...}}  -> {"path": SYSFS_PATH}
  {"set": PATH, "attribute": NAME, "value": TEXT}          -> {"ok": true}
  {"remove": PATH}                                          -> {"ok": true}
Attribute values are written as given: libiio expects sysfs values to end in a newline.
"""
import json
import sys

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
        testbed.remove_device(command["remove"])
        print(json.dumps({"ok": True}), flush=True)
