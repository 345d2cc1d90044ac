#!/usr/bin/python3
"""A HID sensor hub you can script, through /dev/uhid: the kernel's own HID sensor drivers read it.

Creates one HID device whose report descriptor carries the chosen sensors, each its own top-level Physical
collection with its own report ID, in the form Linux 6.1's hid-sensor-hub and IIO drivers take:
  accel    accelerometer 3D (HID-SENSOR-200073 -> IIO "accel_3d"): x, y, z in m/s²
  als      ambient light (HID-SENSOR-200041 -> "als"): illuminance in lux
  prox     human presence (HID-SENSOR-200011 -> "prox"): a presence/proximity value, 1 near, 0 far
  compass  compass 3D (HID-SENSOR-200083 -> "magn_3d"): tilt-compensated magnetic north heading in whole degrees,
           and magnetic flux x, y, z in gauss
  hinge    Intel's hinge sensor, a custom sensor (HID-SENSOR-2000e1, taken by hid-sensor-custom, which makes
           HID-SENSOR-INT-020b for it -> "hinge", from hid-sensor-custom-intel-hinge, a module Debian 12 does not
           build: scripts/kernel-hinge-module.sh): the hinge, screen and keyboard angles in whole degrees. Not in
           the default --sensors.
Each has the properties hid-sensor-iio-common reads: report interval (ms), change sensitivity (in the data's own
unit), power state and reporting state; the hinge also its manufacturer and serial number, in 16-bit characters.
The hub answers every GET_REPORT (feature: the properties; input: the current reading) and SET_REPORT (feature:
the properties are stored), always, from a thread that only reads /dev/uhid, unless told to fall silent.

Input reports, as real hubs send them: while a sensor is powered (D0/D1) and its reporting state is on, a reading
goes out when some field differs from the last one sent by more than the change sensitivity (per field, in raw
counts), no sooner than one report interval after the previous report; the first reading after power-on goes out
at once. So a sensor held still sends nothing after its first reading. With --every-interval a reading also goes
out at every report interval, changed or not. This is the contract of Microsoft's sensor guidelines, which hub
firmware is written to ("Filtering data": the current report interval is the minimum period between data updates,
sent when a change beyond the change sensitivity has occurred; recommended defaults 100 ms and 0.02 g for an
accelerometer; proximity reports on change only; its certification test expects events at every interval when
the sensitivity is 0, which --every-interval gives).

What Linux 6.1's drivers set: never the interval or the sensitivity by themselves (only when sampling_frequency or
hysteresis is written; after a system resume they write back what was written), so the hub's defaults
(--interval 100, --sensitivity 0) hold until then. They set the power and reporting states: D0 and all events when
a buffer is enabled or a raw attribute is read (then sleeping two report intervals), D4 and no events 3 s after
the last user (runtime PM autosuspend). Each of these is one SET_REPORT of the whole feature report.

Prints {"ready": true, ...} once created. Commands, one JSON object a line on standard input, each answered with
one JSON line on standard output ({"ok": false, "error": TEXT} when it cannot be done):
  {"set": SENSOR, "values": [...]}   the sensor's readings at once, in its own order: accel [x, y, z] m/s²,
                       als [lux], prox [value], compass [heading°, flux x, y, z gauss], hinge [hinge°, screen°,
                       keyboard°] (a shorter list sets the first ones). Named forms: {"set": "als", "lux": L},
                       {"set": "prox", "near": BOOL} (1 or 0), {"set": "prox", "value": N}, {"set": "compass",
                       "heading": DEG}, {"set": "compass", "flux": [X, Y, Z]}, {"set": "hinge", "angle": DEG}.
                       Stops a playback of that sensor.                          -> {"ok": true, "raw": [...]}
  {"play": PATH, "speed": 1, "loop": false, "columns": "display"|"base", "sensor": "accel"}
                       plays an orientd trace (docs/traces-and-tools.md: "t,x,y,z", v2 adds "bx,by,bz") into
                       the accelerometer in real time divided by speed: x, y, z, or with "columns": "base" the base
                       sensor's bx, by, bz     -> {"ok": true, "rows": N, "seconds": S} at the start
  {"stop": true}       stops any playback                                              -> {"ok": true}
  {"played": true}     each row of the last playback as it went: its trace time and when the hub set it, and when
                       each input report of that sensor went out since, all on time.monotonic() (the kernel's
                       CLOCK_MONOTONIC)        -> {"played": [[T, MONOTONIC], ...], "reports": [MONOTONIC, ...]}
  {"stall": BOOL, "sensor": SENSOR}   stops (true) or resumes sending input reports, while GET_REPORT and
                       SET_REPORT are still answered; without "sensor", every sensor    -> {"ok": true}
  {"silent": BOOL}     the hub keeps reading /dev/uhid but answers nothing and sends nothing: each request of
                       the kernel then waits out its 5 s timeout, one at a time for all the hub's sensors (a
                       feature attribute reads its cached value after 5 s; a raw read returns 0 after ~30 s,
                       with nothing in dmesg)                                           -> {"ok": true}
  {"unplug": true}     UHID_DESTROY: the HID device and its sensors go                  -> {"ok": true}
  {"plug": true}       UHID_CREATE2 again: a new HID device, properties back to the defaults -> {"ok": true}
  {"state": SENSOR}    what the driver set and what was sent: {"interval_ms", "sensitivity": {NAME: VALUE},
                       "power", "reporting", "reports_sent", "get_reports": {"feature", "input"},
                       "set_reports", "values", "last_sent", "stalled", "playing", "log": the last SET_REPORTs
                       decoded, with t in seconds since the hub started, "traffic": the last input GET_REPORTs
                       answered and input reports sent, with t}
  {"devices": true, "timeout": S}  waits up to S seconds (10 by default) for the kernel to make every sensor's
                       IIO device, found through /sys from this hub's HID device -> {"hid": SYSFS_PATH,
                       "sensors": {SENSOR: {"iio": SYSFS_PATH, "dev": "/dev/iio:deviceN", "name": NAME,
                       "platform": SYSFS_PATH}}, "missing": [SENSOR, ...]}
  {"events": true}     how many of each uhid event the kernel sent (START, OPEN, GET_REPORT, ...) -> {"events": {...}}
End of input destroys the device and exits.

Telling two hubs apart in udev (a convertible's base accelerometer): give one hub its own --product; the HID
device's kernel name (0006:1209:PPPP.NNNN) and its modalias attribute carry it, e.g.
  SUBSYSTEM=="iio", KERNELS=="*:1209:BA5E.*", ENV{ACCEL_LOCATION}="base"
--name, --phys and --uniq land in the HID device's HID_NAME, HID_PHYS and HID_UNIQ properties.

Encodings (see --help): the accelerometer as 32-bit fields in m/s² at exponent -5 by default (0.00001 m/s² a
count: a trace reads back exactly), light in lux at exponent -2, presence as a plain 32-bit count, the heading in
whole degrees (the kernel gives in_rot_scale 1 whatever the exponent, so finer steps would read wrong), flux in
gauss at exponent -3, the hinge's angles in whole degrees (its driver's in_angl_scale then reads 0.017453293, in
radians). Units are written in the byte order the kernel compares them in, which is the reverse of the HID
specification's: written the specification's way, the kernel ignores the unit and its exponent.

Resolution: 0.00001 m/s² (the traces' own precision), 0.01 lux, 1 degree, 0.001 gauss, presence 1.
"""
import argparse
import collections
import json
import os
import signal
import struct
import sys
import threading
import time
from dataclasses import dataclass, field

# ---------------------------------------------------------------------------------------------------------------
# The uhid interface (include/uapi/linux/uhid.h): every event is a packed struct uhid_event, a u32 type and a union
# whose largest member is uhid_create2_req, so every event is read and written at that size.

UHID_DESTROY, UHID_START, UHID_STOP, UHID_OPEN, UHID_CLOSE, UHID_OUTPUT = 1, 2, 3, 4, 5, 6
UHID_GET_REPORT, UHID_GET_REPORT_REPLY, UHID_CREATE2, UHID_INPUT2 = 9, 10, 11, 12
UHID_SET_REPORT, UHID_SET_REPORT_REPLY = 13, 14
EVENT_NAMES = {UHID_START: "start", UHID_STOP: "stop", UHID_OPEN: "open", UHID_CLOSE: "close",
               UHID_OUTPUT: "output", UHID_GET_REPORT: "get_report", UHID_SET_REPORT: "set_report"}
UHID_FEATURE_REPORT, UHID_OUTPUT_REPORT, UHID_INPUT_REPORT = 0, 1, 2

CREATE2 = struct.Struct("<I128s64s64sHHIIII4096s")  # type, name, phys, uniq, rd_size, bus, vendor, product, ...
EVENT_SIZE = CREATE2.size  # 4376 bytes
GET_REPORT = struct.Struct("<IIBB")  # type, id, rnum, rtype
SET_REPORT = struct.Struct("<IIBBH")  # type, id, rnum, rtype, size; data follows
GET_REPORT_REPLY = struct.Struct("<IIHH")  # type, id, err, size; data follows
SET_REPORT_REPLY = struct.Struct("<IIH")  # type, id, err
INPUT2 = struct.Struct("<IH")  # type, size; data follows
EIO = 5
BUS_VIRTUAL = 0x06


def padded(event):
    return event.ljust(EVENT_SIZE, b"\0")


def create2_event(name, phys, uniq, descriptor, vendor, product):
    return CREATE2.pack(UHID_CREATE2, name.encode(), phys.encode(), uniq.encode(), len(descriptor), BUS_VIRTUAL,
                        vendor, product, 0, 0, descriptor)


def input2_event(report):
    return padded(INPUT2.pack(UHID_INPUT2, len(report)) + report)


def get_report_reply_event(request_id, report):
    if report is None:
        return padded(GET_REPORT_REPLY.pack(UHID_GET_REPORT_REPLY, request_id, EIO, 0))
    return padded(GET_REPORT_REPLY.pack(UHID_GET_REPORT_REPLY, request_id, 0, len(report)) + report)


def set_report_reply_event(request_id, ok):
    return padded(SET_REPORT_REPLY.pack(UHID_SET_REPORT_REPLY, request_id, 0 if ok else EIO))


# ---------------------------------------------------------------------------------------------------------------
# HID report descriptor items (HID 1.11, 6.2.2): a prefix byte (tag << 4 | type << 2 | size code) and 0, 1, 2 or
# 4 bytes of little-endian data.

MAIN, GLOBAL, LOCAL = 0, 1, 2
SIZE_CODES = {0: 0, 1: 1, 2: 2, 4: 3}


def item(tag, kind, data=b""):
    return bytes([tag << 4 | kind << 2 | SIZE_CODES[len(data)]]) + data


def signed_data(value):
    for size, code in ((1, "<b"), (2, "<h"), (4, "<i")):
        if -(1 << (8 * size - 1)) <= value < (1 << (8 * size - 1)):
            return struct.pack(code, value)
    raise ValueError(f"{value} does not fit a descriptor item")


def unsigned_data(value):
    for size, code in ((1, "<B"), (2, "<H"), (4, "<I")):
        if 0 <= value < (1 << (8 * size)):
            return struct.pack(code, value)
    raise ValueError(f"{value} does not fit a descriptor item")


SENSOR_PAGE = 0x20


def usage_page(page):
    return item(0x0, GLOBAL, unsigned_data(page))


def usage(usage_id):
    return item(0x0, LOCAL, struct.pack("<H", usage_id))  # always two bytes: sensor usages are 16-bit IDs


def logical_range(minimum, maximum):
    return item(0x1, GLOBAL, signed_data(minimum)) + item(0x2, GLOBAL, signed_data(maximum))


def report_layout(bits, count=1):
    return item(0x7, GLOBAL, unsigned_data(bits)) + item(0x9, GLOBAL, unsigned_data(count))


def unit(code):
    # The kernel reads the item as a little-endian number and compares it with its HID_USAGE_SENSOR_UNITS_*
    # constants, so `code` is one of those, and not the specification's nibble order.
    return item(0x6, GLOBAL, unsigned_data(code))


def unit_exponent(exponent):
    return item(0x5, GLOBAL, bytes([exponent & 0x0F]))  # a 4-bit two's complement nibble, as HID 1.11 says


def report_id(number):
    return item(0x8, GLOBAL, bytes([number]))


def physical_collection():
    return item(0xA, MAIN, b"\x00")


def logical_collection():
    return item(0xA, MAIN, b"\x02")


def end_collection():
    return item(0xC, MAIN)


DATA_VARIABLE_ABSOLUTE, DATA_ARRAY_ABSOLUTE = 0x02, 0x00


def input_item(flags):
    return item(0x8, MAIN, bytes([flags]))


def feature_item(flags):
    return item(0xB, MAIN, bytes([flags]))


# ---------------------------------------------------------------------------------------------------------------
# The sensors, in the Sensor usage page's terms (HID Usage Tables, page 0x20).

PROPERTY_REPORT_INTERVAL = 0x030E
PROPERTY_REPORTING_STATE = 0x0316
PROPERTY_POWER_STATE = 0x0319
PROPERTY_MANUFACTURER, PROPERTY_SERIAL_NUMBER = 0x0305, 0x0307
CUSTOM_VALUE_1 = 0x0544  # custom values 1 to 28 follow one another
# The LUID of the one custom sensor Linux 6.1's hid-sensor-custom knows, the hinge; its first four characters name
# the platform device it makes (HID-SENSOR-INT-020b).
INTEL_HINGE_LUID = "020B000000000000"
MODIFIER_CHANGE_SENSITIVITY_ABSOLUTE = 0x1000

REPORTING_STATES = [(0x0840, "no events"), (0x0841, "all events"), (0x0842, "threshold events"),
                    (0x0843, "no events wake"), (0x0844, "all events wake"), (0x0845, "threshold events wake")]
POWER_STATES = [(0x0850, "undefined"), (0x0851, "D0 full power"), (0x0852, "D1 low power"),
                (0x0853, "D2 standby with wake"), (0x0854, "D3 sleep with wake"), (0x0855, "D4 power off")]
REPORTING_ON = {"all events", "threshold events", "all events wake", "threshold events wake"}
POWERED = {"D0 full power", "D1 low power"}
# Selector arrays count from 1: the kernel writes the selector's index plus one whatever the descriptor says, so
# a logical minimum of 1 makes its writes mean what it intends.
SELECTOR_MINIMUM = 1

# The kernel's unit constants (include/linux/hid-sensor-ids.h), which it compares the Unit item with.
UNIT_NONE, UNIT_LUX, UNIT_DEGREES = 0x00, 0x01, 0x14
UNIT_METERS_PER_SEC_SQRD, UNIT_G, UNIT_GAUSS = 0x11E0, 0x1A, 0x01E1F000
STANDARD_GRAVITY = 9.80665

INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1


@dataclass
class Encoding:
    """How a physical value is carried: field width, signedness, the unit item and the power of ten of a count."""
    bits: int
    signed: bool
    unit: int
    exponent: int
    base: float = 1.0  # SI value of the unit (9.80665 for g)

    @property
    def resolution(self):
        return self.base * 10.0 ** self.exponent

    @property
    def limits(self):
        if self.signed:
            return -(1 << (self.bits - 1)), (1 << (self.bits - 1)) - 1
        return 0, min((1 << self.bits) - 1, INT32_MAX)

    def to_raw(self, value):
        low, high = self.limits
        return max(low, min(high, round(value / self.resolution)))

    def to_value(self, raw):
        return round(raw * self.resolution, 9)


@dataclass
class Quantity:
    """One input field: a data usage, its encoding, and the change sensitivity it is compared against."""
    name: str
    usage: int
    encoding: Encoding
    sensitivity: str


@dataclass
class Sensitivity:
    """An absolute change sensitivity property: the data usage it modifies, in that data's own encoding."""
    name: str
    data_usage: int
    encoding: Encoding


@dataclass
class Text:
    """A read-only property given as a string of 16-bit characters (a manufacturer, a serial number)."""
    name: str
    usage: int
    text: str


@dataclass
class SensorKind:
    key: str
    usage: int
    iio_name: str
    quantities: list
    sensitivities: list
    named_values: dict = field(default_factory=dict)  # "lux" -> index of the quantity it sets
    texts: list = field(default_factory=list)  # Text properties, after the sensitivities in the feature report
    # The platform device the IIO driver binds to, when it is not the hub's own cell: hid-sensor-custom makes one
    # for a custom sensor it knows (HID-SENSOR-INT-020b for Intel's hinge), as a sibling of the cells.
    driver_cell: str = None

    @property
    def platform_name(self):
        return f"HID-SENSOR-{0x200000 | self.usage:x}"

    @property
    def iio_cell(self):
        return self.driver_cell or self.platform_name


def sensitivity_encoding(data):
    """A change sensitivity is in its data's unit and exponent, always 32 bits wide: the kernel writes it through
    sizeof(s32), and a 16-bit field at a fine exponent could not hold a useful threshold."""
    return Encoding(32, False, data.unit, data.exponent, data.base)


def sensor_kinds(accel_encoding):
    """The five sensors this hub can carry, the accelerometer in the encoding chosen on the command line."""
    light = Encoding(32, False, UNIT_LUX, -2)
    presence = Encoding(32, False, UNIT_NONE, 0)
    heading = Encoding(32, False, UNIT_DEGREES, 0)
    angle = Encoding(32, True, UNIT_DEGREES, 0)
    flux = Encoding(32, True, UNIT_GAUSS, -3)
    return {
        "accel": SensorKind(
            "accel", 0x73, "accel_3d",
            [Quantity(axis, usage_id, accel_encoding, "acceleration")
             for axis, usage_id in (("x", 0x0453), ("y", 0x0454), ("z", 0x0455))],
            [Sensitivity("acceleration", 0x0452, sensitivity_encoding(accel_encoding))]),
        "als": SensorKind(
            "als", 0x41, "als", [Quantity("illuminance", 0x04D1, light, "light")],
            [Sensitivity("light", 0x04D0, light)], {"lux": 0}),
        "prox": SensorKind(
            "prox", 0x11, "prox", [Quantity("presence", 0x04B1, presence, "presence")],
            [Sensitivity("presence", 0x04B0, presence)], {"value": 0}),
        "compass": SensorKind(
            "compass", 0x83, "magn_3d",
            [Quantity(axis, usage_id, flux, "flux")
             for axis, usage_id in (("flux_x", 0x0485), ("flux_y", 0x0486), ("flux_z", 0x0487))]
            + [Quantity("heading", 0x0475, heading, "heading")],
            [Sensitivity("flux", 0x0484, flux), Sensitivity("heading", 0x0475, heading)],
            {"heading": 3}),
        # Intel's hinge, as an Intel sensor hub (ISH) gives it: a custom sensor whose manufacturer is "INTEL" and
        # whose serial number, after its first five characters, is the LUID hid-sensor-custom knows. It then makes
        # the platform device HID-SENSOR-INT-020b, where hid-sensor-custom-intel-hinge binds and reads custom values
        # 1 to 3 (hinge, screen and keyboard angles) as 32-bit fields, the sensitivity on the first.
        "hinge": SensorKind(
            "hinge", 0xE1, "hinge",
            [Quantity(name, usage_id, angle, "angle")
             for name, usage_id in (("hinge", CUSTOM_VALUE_1), ("screen", CUSTOM_VALUE_1 + 1),
                                    ("keyboard", CUSTOM_VALUE_1 + 2))],
            [Sensitivity("angle", CUSTOM_VALUE_1, sensitivity_encoding(angle))],
            {"angle": 0},
            [Text("manufacturer", PROPERTY_MANUFACTURER, "INTEL"),
             Text("serial number", PROPERTY_SERIAL_NUMBER, "LUID:" + INTEL_HINGE_LUID)],
            driver_cell="HID-SENSOR-INT-020b"),
    }


def field_format(encoding):
    return {(8, True): "b", (8, False): "B", (16, True): "h", (16, False): "H",
            (32, True): "i", (32, False): "I"}[(encoding.bits, encoding.signed)]


def sensor_collection(kind, number):
    """One sensor's top-level Physical collection: its feature report (reporting state, power state, report
    interval, change sensitivities, texts) and its input report (one Input item per data field: the kernel refuses a
    report count of 3)."""
    parts = [usage_page(SENSOR_PAGE), usage(kind.usage), physical_collection(), report_id(number)]
    for property_usage, selectors in ((PROPERTY_REPORTING_STATE, REPORTING_STATES),
                                      (PROPERTY_POWER_STATE, POWER_STATES)):
        parts += [logical_range(SELECTOR_MINIMUM, SELECTOR_MINIMUM + len(selectors) - 1), report_layout(8),
                  usage(property_usage), logical_collection()]
        parts += [usage(selector) for selector, _ in selectors]
        parts += [feature_item(DATA_ARRAY_ABSOLUTE), end_collection()]
    parts += [logical_range(0, INT32_MAX), report_layout(32), unit(UNIT_NONE), unit_exponent(0),
              usage(PROPERTY_REPORT_INTERVAL), feature_item(DATA_VARIABLE_ABSOLUTE)]  # no unit: milliseconds
    for sensitivity in kind.sensitivities:
        _, high = sensitivity.encoding.limits
        parts += [logical_range(0, high), report_layout(sensitivity.encoding.bits), unit(sensitivity.encoding.unit),
                  unit_exponent(sensitivity.encoding.exponent),
                  usage(MODIFIER_CHANGE_SENSITIVITY_ABSOLUTE | sensitivity.data_usage),
                  feature_item(DATA_VARIABLE_ABSOLUTE)]
    for text in kind.texts:  # one 16-bit character a count
        parts += [logical_range(0, 0x7FFF), report_layout(16, len(text.text)), unit(UNIT_NONE), unit_exponent(0),
                  usage(text.usage), feature_item(DATA_VARIABLE_ABSOLUTE)]
    for quantity in kind.quantities:
        low, high = quantity.encoding.limits
        parts += [logical_range(low, high), report_layout(quantity.encoding.bits), unit(quantity.encoding.unit),
                  unit_exponent(quantity.encoding.exponent), usage(quantity.usage), input_item(DATA_VARIABLE_ABSOLUTE)]
    parts.append(end_collection())
    return b"".join(parts)


# ---------------------------------------------------------------------------------------------------------------
# One sensor's state: its properties as the driver set them, its readings, and what was sent.

@dataclass
class Sensor:
    kind: SensorKind
    report_id: int
    default_interval_ms: int
    default_sensitivity: dict  # name -> physical value
    values: list = field(default_factory=list)  # raw counts, one per quantity
    last_sent: list = None
    last_sent_time: float = None
    interval_ms: int = 0
    sensitivity: dict = field(default_factory=dict)  # name -> raw counts
    power: str = "D4 power off"
    reporting: str = "no events"
    reports_sent: int = 0
    feature_gets: int = 0
    input_gets: int = 0
    set_reports: int = 0
    stalled: bool = False
    log: collections.deque = field(default_factory=lambda: collections.deque(maxlen=20))
    # The last input GET_REPORTs answered and input reports sent, with t: what a test that failed is told.
    traffic: collections.deque = field(default_factory=lambda: collections.deque(maxlen=20))

    def __post_init__(self):
        if not self.values:
            self.values = [0] * len(self.kind.quantities)
        self.reset_properties()

    def reset_properties(self):
        """A device just plugged: off, not reporting, the hub's own interval and sensitivities."""
        self.interval_ms = self.default_interval_ms
        self.sensitivity = {s.name: s.encoding.to_raw(self.default_sensitivity.get(s.name, 0.0))
                            for s in self.kind.sensitivities}
        self.power, self.reporting = "D4 power off", "no events"
        self.last_sent, self.last_sent_time = None, None

    @property
    def active(self):
        return self.power in POWERED and self.reporting in REPORTING_ON

    def feature_layout(self):
        """struct's format of the feature report after its ID: reporting state, power state, interval, sensitivities,
        and the texts' characters."""
        return ("<BBI" + "".join(field_format(s.encoding) for s in self.kind.sensitivities)
                + "".join(f"{len(t.text)}H" for t in self.kind.texts))

    def input_layout(self):
        return "<" + "".join(field_format(q.encoding) for q in self.kind.quantities)

    def feature_report(self):
        reporting = selector_value(REPORTING_STATES, self.reporting)
        power = selector_value(POWER_STATES, self.power)
        sensitivities = [self.sensitivity[s.name] for s in self.kind.sensitivities]
        characters = [ord(character) for t in self.kind.texts for character in t.text]
        return bytes([self.report_id]) + struct.pack(self.feature_layout(), reporting, power, self.interval_ms,
                                                     *sensitivities, *characters)

    def input_report(self):
        return bytes([self.report_id]) + struct.pack(self.input_layout(), *self.values)

    def store_feature(self, data, seconds):
        """A SET_REPORT of the feature report: every field is stored, as a device stores what it is sent (the
        kernel sends the whole report, the fields it does not mean to change as it last read them)."""
        layout = self.feature_layout()
        if len(data) < 1 + struct.calcsize(layout):
            return False
        reporting, power, interval, *rest = struct.unpack_from(layout, data, 1)
        sensitivities = rest[:len(self.kind.sensitivities)]  # the texts after them are read-only
        self.reporting = selector_name(REPORTING_STATES, reporting, self.reporting)
        self.power = selector_name(POWER_STATES, power, self.power)
        self.interval_ms = interval
        for sensitivity, raw in zip(self.kind.sensitivities, sensitivities):
            self.sensitivity[sensitivity.name] = raw
        if not self.active:
            self.last_sent_time = None  # so that the first reading after the next power-on goes out at once
        self.set_reports += 1
        self.log.append({"t": round(seconds, 3), **self.properties()})
        return True

    def properties(self):
        return {"interval_ms": self.interval_ms,
                "sensitivity": {s.name: s.encoding.to_value(self.sensitivity[s.name])
                                for s in self.kind.sensitivities},
                "power": self.power, "reporting": self.reporting}

    def changed_beyond_sensitivity(self):
        if self.last_sent is None:
            return True
        for quantity, now, sent in zip(self.kind.quantities, self.values, self.last_sent):
            if abs(now - sent) > self.sensitivity[quantity.sensitivity]:
                return True
        return False

    def physical_values(self, raw=None):
        return [q.encoding.to_value(r) for q, r in zip(self.kind.quantities, raw if raw is not None else self.values)]


def selector_value(selectors, name):
    return [label for _, label in selectors].index(name) + SELECTOR_MINIMUM


def selector_name(selectors, value, current):
    index = value - SELECTOR_MINIMUM
    return selectors[index][1] if 0 <= index < len(selectors) else current  # an unknown selector changes nothing


# ---------------------------------------------------------------------------------------------------------------
# Traces (docs/traces-and-tools.md): "#" lines, a header row t,x,y,z or t,x,y,z,bx,by,bz, then numbers.

def read_trace(path, columns):
    """Returns [(t, (x, y, z))] for the display (x, y, z) or the base (bx, by, bz) columns."""
    rows, header = [], None
    with open(path, encoding="utf-8") as trace:
        for number, line in enumerate(trace, 1):
            line = line.strip()
            if line.startswith("# orientd trace v") and line[len("# orientd trace v"):] not in ("1", "2"):
                raise ValueError(f"{path}:{number}: only trace versions 1 and 2 are known")
            if not line or line.startswith("#"):
                continue
            cells = [cell.strip() for cell in line.split(",")]
            if header is None:
                if cells not in (["t", "x", "y", "z"], ["t", "x", "y", "z", "bx", "by", "bz"]):
                    raise ValueError(f"{path}:{number}: expected the header t,x,y,z or t,x,y,z,bx,by,bz")
                header = cells
                if columns == "base" and "bx" not in header:
                    raise ValueError(f"{path}: a v1 trace has no base columns")
                wanted = [header.index(name) for name in (("bx", "by", "bz") if columns == "base" else ("x", "y", "z"))]
                continue
            if len(cells) != len(header):
                raise ValueError(f"{path}:{number}: expected {len(header)} columns, found {len(cells)}")
            numbers = [float(cell) for cell in cells]
            if rows and numbers[0] <= rows[-1][0]:
                raise ValueError(f"{path}:{number}: t does not increase")
            rows.append((numbers[0], tuple(numbers[index] for index in wanted)))
    if header is None:
        raise ValueError(f"{path}: no header row")
    return rows


# ---------------------------------------------------------------------------------------------------------------
# The hub: /dev/uhid, a reader thread that answers the kernel, a reporter thread that sends input reports.

class Hub:
    def __init__(self, options):
        self.options = options
        self.started_at = time.monotonic()
        kinds = sensor_kinds(options.accel_encoding)
        self.sensors = {}
        for number, key in enumerate(options.sensors, 1):
            self.sensors[key] = Sensor(kinds[key], number, options.interval, options.sensitivity.get(key, {}))
        self.descriptor = b"".join(sensor_collection(s.kind, s.report_id) for s in self.sensors.values())
        self.by_report_id = {s.report_id: s for s in self.sensors.values()}
        self.lock = threading.Condition()
        self.write_lock = threading.Lock()
        self.created = False
        self.silent = False
        self.event_counts = collections.Counter()
        self.started = threading.Event()
        self.playback_stop = threading.Event()
        self.playback = None  # (sensor key, thread)
        self.played = []  # (trace time, when it was set, on this guest's monotonic clock), for the last playback
        self.reports_during_playback = []  # when each input report of the playing sensor went out, likewise
        self.fd = os.open(options.uhid, os.O_RDWR | os.O_CLOEXEC)

    def seconds(self):
        return time.monotonic() - self.started_at

    def sensor(self, key):
        if key not in self.sensors:
            raise ValueError(f"this hub has no {key}; it has {', '.join(self.sensors)}")
        return self.sensors[key]

    def write(self, event):
        with self.write_lock:
            try:
                os.write(self.fd, event)
                return True
            except OSError:
                return False  # e.g. a reply to a request of a device destroyed meanwhile

    # --- plugging ---

    def plug(self):
        with self.lock:
            if self.created:
                return
            for sensor in self.sensors.values():
                sensor.reset_properties()
            self.started.clear()
            event = create2_event(self.options.name, self.options.phys, self.options.uniq, self.descriptor,
                                  self.options.vendor, self.options.product)
            if not self.write(event):
                raise OSError("UHID_CREATE2 failed")
            self.created = True
            self.lock.notify_all()

    def unplug(self):
        with self.lock:
            if not self.created:
                return
            self.created = False
        # Not under the state lock: the reader thread may still be answering while the kernel tears down.
        self.write(padded(struct.pack("<I", UHID_DESTROY)))

    # --- the kernel's side ---

    def read_forever(self):
        while True:
            try:
                event = os.read(self.fd, EVENT_SIZE)
            except OSError:
                return
            if not event:
                return  # end of file: not /dev/uhid
            if len(event) < 4:
                continue
            kind = struct.unpack_from("<I", event)[0]
            self.event_counts[EVENT_NAMES.get(kind, str(kind))] += 1
            if kind == UHID_START:
                self.started.set()
            elif kind == UHID_GET_REPORT:
                self.answer_get_report(event)
            elif kind == UHID_SET_REPORT:
                self.answer_set_report(event)

    def answer_get_report(self, event):
        _, request_id, number, report_type = GET_REPORT.unpack_from(event)
        with self.lock:
            if self.silent:
                return
            sensor = self.by_report_id.get(number)
            report = None
            if sensor and report_type == UHID_FEATURE_REPORT:
                sensor.feature_gets += 1
                report = sensor.feature_report()
            elif sensor and report_type == UHID_INPUT_REPORT:
                sensor.input_gets += 1
                report = sensor.input_report()
                sensor.traffic.append({"t": round(self.seconds(), 3), "answered": "GET_REPORT input"})
        self.write(get_report_reply_event(request_id, report))

    def answer_set_report(self, event):
        _, request_id, number, report_type, size = SET_REPORT.unpack_from(event)
        data = event[SET_REPORT.size:SET_REPORT.size + size]
        with self.lock:
            if self.silent:
                return
            sensor = self.by_report_id.get(number)
            ok = bool(sensor) and report_type == UHID_FEATURE_REPORT and sensor.store_feature(data, self.seconds())
            self.lock.notify_all()  # the sensor may have been powered or its interval changed
        self.write(set_report_reply_event(request_id, ok))

    # --- input reports ---

    def due(self, sensor, now):
        """When the sensor's next input report goes out, or None while it has nothing to send."""
        if not self.created or self.silent or sensor.stalled or not sensor.active:
            return None
        if sensor.last_sent_time is None:
            return now  # the first reading after power-on
        earliest = sensor.last_sent_time + max(sensor.interval_ms, self.options.min_interval) / 1000
        if self.options.every_interval or sensor.changed_beyond_sensitivity():
            return earliest
        return None

    def report_forever(self):
        while True:
            with self.lock:
                now = time.monotonic()
                reports, wake = [], None
                for sensor in self.sensors.values():
                    due = self.due(sensor, now)
                    if due is not None and due <= now:
                        reports.append(sensor.input_report())
                        sensor.last_sent, sensor.last_sent_time = list(sensor.values), now
                        sensor.reports_sent += 1
                        sensor.traffic.append({"t": round(self.seconds(), 3), "sent": "input report"})
                        if self.playback and self.playback[0] == sensor.kind.key:
                            self.reports_during_playback.append(now)
                        due = self.due(sensor, now)
                    if due is not None:
                        wake = due if wake is None else min(wake, due)
                for report in reports:
                    self.write(input2_event(report))
                self.lock.wait(None if wake is None else max(0.0, wake - time.monotonic()))

    # --- readings ---

    def set_values(self, key, values):
        """Physical values for the first len(values) quantities; returns the raw counts."""
        with self.lock:
            sensor = self.sensors[key]
            for index, value in enumerate(values):
                sensor.values[index] = sensor.kind.quantities[index].encoding.to_raw(float(value))
            self.lock.notify_all()
            return list(sensor.values)

    def play(self, key, rows, speed, loop):
        self.stop_playback()
        stop = self.playback_stop = threading.Event()
        self.played, self.reports_during_playback = [], []

        def run():
            step = (rows[-1][0] - rows[0][0]) / max(1, len(rows) - 1)
            start, origin = time.monotonic(), rows[0][0]
            offset = 0.0
            while not stop.is_set():
                for t, values in rows:
                    wait = start + (t - origin + offset) / speed - time.monotonic()
                    if wait > 0 and stop.wait(wait):
                        return
                    self.set_values(key, values)
                    self.played.append((t + offset, time.monotonic()))
                if not loop:
                    return
                offset += rows[-1][0] - origin + step

        thread = threading.Thread(target=run, daemon=True)
        self.playback = (key, thread)
        thread.start()

    def stop_playback(self):
        self.playback_stop.set()
        if self.playback:
            self.playback[1].join()
        self.playback = None

    def playing(self, key):
        return bool(self.playback and self.playback[0] == key and self.playback[1].is_alive())

    # --- what the kernel made of it ---

    def hid_device(self):
        """This hub's HID device in sysfs, matched on the name, phys, uniq and IDs it was created with."""
        root = "/sys/bus/hid/devices"
        wanted = {"HID_NAME": self.options.name, "HID_PHYS": self.options.phys, "HID_UNIQ": self.options.uniq,
                  "HID_ID": f"{BUS_VIRTUAL:04X}:{self.options.vendor:08X}:{self.options.product:08X}"}
        for entry in sorted(os.listdir(root)) if os.path.isdir(root) else []:
            properties = read_uevent(os.path.join(root, entry, "uevent"))
            if all(properties.get(name, "") == value for name, value in wanted.items()):
                return os.path.realpath(os.path.join(root, entry))
        return None

    def iio_devices(self):
        try:
            return self.find_iio_devices()
        except OSError:
            return None, {}  # the device went while it was being looked at

    def find_iio_devices(self):
        hid = self.hid_device()
        found = {}
        if hid is None:
            return None, found
        for key, sensor in self.sensors.items():
            for cell in sorted(os.listdir(hid)):
                if cell != sensor.kind.iio_cell and not cell.startswith(sensor.kind.iio_cell + "."):
                    continue
                platform = os.path.join(hid, cell)
                for child in sorted(os.listdir(platform)):
                    if child.startswith("iio:device"):
                        iio = os.path.join(platform, child)
                        found[key] = {"iio": iio, "dev": "/dev/" + child, "platform": platform,
                                      "name": read_text(os.path.join(iio, "name"))}
        return hid, found

    def state(self, key):
        sensor = self.sensor(key)
        with self.lock:
            return {**sensor.properties(), "reports_sent": sensor.reports_sent,
                    "get_reports": {"feature": sensor.feature_gets, "input": sensor.input_gets},
                    "set_reports": sensor.set_reports, "values": sensor.physical_values(),
                    "last_sent": sensor.physical_values(sensor.last_sent) if sensor.last_sent else None,
                    "stalled": sensor.stalled, "silent": self.silent, "plugged": self.created,
                    "playing": self.playing(key), "log": list(sensor.log),
                    "traffic": list(sensor.traffic)}


def read_text(path):
    try:
        with open(path, encoding="utf-8") as file:
            return file.read().strip()
    except OSError:
        return None


def read_uevent(path):
    text = read_text(path) or ""
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)


# ---------------------------------------------------------------------------------------------------------------
# Commands.

def named_values(sensor, command):
    """The sensor's readings with those the command names replaced: lux, value, near, heading, flux."""
    values, given = list(sensor.physical_values()), False
    for name, index in sensor.kind.named_values.items():
        if name in command:
            values[index], given = command[name], True
    if sensor.kind.key == "prox" and "near" in command:
        values[0], given = (1 if command["near"] else 0), True
    if sensor.kind.key == "compass" and "flux" in command:
        values[0:3], given = list(command["flux"]), True
    if not given:
        raise ValueError(f"nothing to set: give {sensor.kind.key} \"values\" or a named reading")
    return values


def set_command(hub, command):
    key = command["set"]
    sensor = hub.sensor(key)
    values = command["values"] if "values" in command else named_values(sensor, command)
    if not 0 < len(values) <= len(sensor.kind.quantities):
        raise ValueError(f"{key} takes 1 to {len(sensor.kind.quantities)} values")
    if hub.playing(key):
        hub.stop_playback()
    return {"ok": True, "raw": hub.set_values(key, values)}


def play_command(hub, command):
    key = command.get("sensor", "accel")
    if hub.sensor(key).kind.key != "accel":
        raise ValueError("a trace plays into an accelerometer")
    speed = float(command.get("speed", 1))
    if speed <= 0:
        raise ValueError("speed must be above 0")
    rows = read_trace(command["play"], command.get("columns", "display"))
    hub.play(key, rows, speed, bool(command.get("loop", False)))
    return {"ok": True, "rows": len(rows), "seconds": round((rows[-1][0] - rows[0][0]) / speed, 6)}


def devices_command(hub, command):
    deadline = time.monotonic() + float(command.get("timeout", 10))
    while True:
        hid, found = hub.iio_devices()
        missing = [key for key in hub.sensors if key not in found]
        if not missing or time.monotonic() >= deadline:
            return {"hid": hid, "sensors": found, "missing": missing}
        time.sleep(0.1)


def flag_command(hub, command, name):
    with hub.lock:
        if name == "stall":
            sensors = [hub.sensor(command["sensor"])] if "sensor" in command else hub.sensors.values()
            for sensor in sensors:
                sensor.stalled = bool(command["stall"])
        else:
            hub.silent = bool(command["silent"])
        hub.lock.notify_all()
    return {"ok": True}


def run_command(hub, command):
    if "set" in command:
        return set_command(hub, command)
    if "play" in command:
        return play_command(hub, command)
    if "stop" in command:
        hub.stop_playback()
        return {"ok": True}
    if "stall" in command:
        return flag_command(hub, command, "stall")
    if "silent" in command:
        return flag_command(hub, command, "silent")
    if "unplug" in command:
        hub.unplug()
        return {"ok": True}
    if "plug" in command:
        hub.plug()
        return {"ok": True}
    if "state" in command:
        return hub.state(command["state"])
    if "devices" in command:
        return devices_command(hub, command)
    if "events" in command:
        return {"events": dict(hub.event_counts)}
    if "played" in command:
        with hub.lock:
            return {"played": list(hub.played), "reports": list(hub.reports_during_playback)}
    raise ValueError("unknown command")


# ---------------------------------------------------------------------------------------------------------------
# Command line.

def parse_sensitivities(texts, sensors):
    """--sensitivity accel=0.05 (the sensor's first sensitivity) or compass.heading=2."""
    result = {}
    for text in texts:
        name, _, value = text.partition("=")
        key, _, which = name.partition(".")
        if key not in sensors:
            raise SystemExit(f"--sensitivity {text}: no sensor {key} (one of {', '.join(sensors)})")
        kind = sensors[key]
        which = which or kind.sensitivities[0].name
        if which not in [s.name for s in kind.sensitivities]:
            raise SystemExit(f"--sensitivity {text}: {key} has {', '.join(s.name for s in kind.sensitivities)}")
        result.setdefault(key, {})[which] = float(value)
    return result


def parse_options(arguments):
    parser = argparse.ArgumentParser(description="A HID sensor hub on /dev/uhid, scripted by JSON lines.")
    parser.add_argument("--name", default="orientd test sensor hub", help="the HID device's name (HID_NAME)")
    parser.add_argument("--phys", default="", help="its physical path (HID_PHYS)")
    parser.add_argument("--uniq", default=None, help="its unique ID (HID_UNIQ); hub-PID by default")
    parser.add_argument("--vendor", type=lambda s: int(s, 0), default=0x1209, help="vendor ID (0x1209)")
    parser.add_argument("--product", type=lambda s: int(s, 0), default=0x0001, help="product ID (0x0001)")
    parser.add_argument("--sensors", default="accel,als,prox,compass", help="which sensors, comma-separated")
    parser.add_argument("--interval", type=int, default=100, help="report interval until the driver sets one, ms")
    parser.add_argument("--min-interval", type=int, default=10, help="the shortest interval the hub keeps, ms")
    parser.add_argument("--sensitivity", action="append", default=[], metavar="SENSOR[.NAME]=VALUE",
                        help="change sensitivity until the driver sets one, in the data's unit (0 by default)")
    parser.add_argument("--every-interval", action="store_true",
                        help="also send a reading at every report interval, changed or not")
    parser.add_argument("--accel-unit", choices=["ms2", "g", "none"], default="ms2",
                        help="m/s², g, or no unit item (the kernel then assumes g)")
    parser.add_argument("--accel-exponent", type=int, default=-5, help="power of ten of one count (-5)")
    parser.add_argument("--accel-bits", type=int, choices=[16, 32], default=32, help="axis field width")
    parser.add_argument("--uhid", default="/dev/uhid", help=argparse.SUPPRESS)
    parser.add_argument("--print-descriptor", action="store_true", help="print the report descriptor in hex, exit")
    options = parser.parse_args(arguments)
    options.sensors = [key.strip() for key in options.sensors.split(",") if key.strip()]
    unit_code, base = {"ms2": (UNIT_METERS_PER_SEC_SQRD, 1.0), "g": (UNIT_G, STANDARD_GRAVITY),
                       "none": (UNIT_NONE, STANDARD_GRAVITY)}[options.accel_unit]
    if not -8 <= options.accel_exponent <= 7:
        raise SystemExit("--accel-exponent must be within -8..7 (a 4-bit nibble)")
    options.accel_encoding = Encoding(options.accel_bits, True, unit_code, options.accel_exponent, base)
    if options.accel_encoding.limits[1] * options.accel_encoding.resolution < 4 * STANDARD_GRAVITY:
        raise SystemExit("that accelerometer encoding cannot carry ±4 g")
    kinds = sensor_kinds(options.accel_encoding)
    unknown = [key for key in options.sensors if key not in kinds]
    if unknown or not options.sensors or len(set(options.sensors)) != len(options.sensors):
        raise SystemExit(f"--sensors: each of {', '.join(kinds)} at most once")
    options.sensitivity = parse_sensitivities(options.sensitivity, kinds)
    if options.uniq is None:
        options.uniq = f"hub-{os.getpid()}"
    return options


def reply(message):
    print(json.dumps(message), flush=True)


def main(arguments):
    options = parse_options(arguments)
    if options.print_descriptor:
        hub_descriptor = b"".join(sensor_collection(kind, number) for number, kind in enumerate(
            (sensor_kinds(options.accel_encoding)[key] for key in options.sensors), 1))
        print(hub_descriptor.hex())
        return 0
    hub = Hub(options)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    threading.Thread(target=hub.read_forever, daemon=True).start()
    threading.Thread(target=hub.report_forever, daemon=True).start()
    try:
        hub.plug()
        started = hub.started.wait(10)
        reply({"ready": True, "name": options.name, "uniq": options.uniq, "phys": options.phys,
               "id": f"{BUS_VIRTUAL:04X}:{options.vendor:04X}:{options.product:04X}", "started": started,
               "sensors": {key: {"report_id": s.report_id, "platform": s.kind.iio_cell,
                                 "iio_name": s.kind.iio_name,
                                 "resolution": [q.encoding.resolution for q in s.kind.quantities]}
                           for key, s in hub.sensors.items()},
               "descriptor_bytes": len(hub.descriptor)})
        for line in sys.stdin:
            if not line.strip():
                continue
            try:
                reply(run_command(hub, json.loads(line)))
            except (ValueError, KeyError, TypeError, OSError) as error:
                reply({"ok": False, "error": f"{type(error).__name__}: {error}"})
    finally:
        hub.stop_playback()
        hub.unplug()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
