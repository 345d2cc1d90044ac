#!/usr/bin/python3
"""Real kernel I2C sensor drivers on i2c-stub, driven by JSON lines on standard input: orientd's real-kernel tier.

Run as root inside a guest booting a real kernel (Debian 12's 6.1): it loads i2c-stub (one stub bus whose chips
are plain register files), pre-sets each part's identification and power-on registers so that the kernel's own
driver probes, binds the driver through the bus's new_device, and then writes the registers that driver reads, so
that its IIO device reports the accelerations, light levels and proximity asked for. The stub raises no interrupt:
every part is polled (in_*_raw), as the drivers read their registers on each sysfs read.

Standard library only. Prints {"ready": true, "bus": N, "addresses": [...]} first, then answers each command (one
JSON object a line) with one JSON line; a command that fails answers {"error": TEXT} and the program goes on.
DEVICE below is an IIO device's sysfs path (/sys/bus/iio/devices/iio:deviceN) or its id (iio:deviceN).
  {"add": PART, "address": N}   binds PART (kxcjk1013, bmc150_accel, mxc4005, ltr501, stk3310, vcnl4040; see
                       PARTS) at address N (default: the part's own; a number or "0x0e"), its registers first cleared
                       and set as the part powers up; waits for its IIO device. Optional "accel", "lux" or
                       "proximity" (as in "set") are written before the answer
                       -> {"path": SYSFS_PATH, "id": "iio:deviceN", "name": IIO_NAME, "part": PART,
                           "address": N, "client": "/sys/bus/i2c/devices/B-00NN"}
  {"set": DEVICE, "accel": [X, Y, Z]}   m/s² in the sensor's own frame, turned into raw counts with the driver's
                       own in_accel_scale (read back each time) and written where the driver reads them
                       -> {"ok": true, "raw": [RX, RY, RZ], "scale": S}
  {"set": DEVICE, "lux": L}   a light level as the driver computes it (ltr501: from its visible and infrared
                       channels, an integer; stk3310, vcnl4040: raw × in_illuminance_scale)
                       -> {"ok": true, "registers": {REGISTER: VALUE}, "reads": LUX}
  {"set": DEVICE, "proximity": RAW}   a raw proximity count        -> {"ok": true, "raw": RAW}
  {"play": TRACE, "device": DEVICE, "speed": F}   plays an orientd trace (v1 or v2; m/s², sensor frame), setting
                       the accelerometer at each line's time divided by F (default 1) from a thread; "base":
                       DEVICE also plays a v2 trace's bx, by, bz; "wait": true answers only when it has finished.
                       A later set, play or remove of the same device stops it
                       -> {"ok": true, "lines": N, "seconds": T} (with "wait": also "late": the worst lateness, s)
  {"stop": DEVICE}     stops a playback                                    -> {"ok": true}
  {"read": DEVICE}     what sysfs reads now: "accel" (m/s², raw × scale), "lux", "proximity" as the part has them
                                                                           -> {"accel": [...], ...}
  {"describe": DEVICE} the device's sysfs attributes and their values (files under the IIO device's folder; buffer
                       and scan_elements left out)                          -> {"name": ..., "attributes": {...}}
  {"registers": DEVICE}   the part's registers that are not 0, as the stub holds them (what the driver wrote at
                       probe and since, and what was set here); words where the part has 16-bit registers
                                                                           -> {"registers": {"0x1b": "0xc8", ...}}
  {"remove": DEVICE}   unbinds it (delete_device); its registers stay in the stub until the next add clears them
                                                                           -> {"ok": true}
  {"parts": true}      the parts known, with their default addresses     -> {"parts": {PART: {...}}}
Devices stay bound when standard input ends.

Not here: the CM32181 light sensor, whose driver matches only ACPI (CPLM3218) and device-tree names, and Debian's
x86 kernel has no CONFIG_OF, so new_device cannot bind it; the VCNL4000/4010/4020 (see VCNL4040); the MMA8452
family, whose probe resets the part and waits for the reset bit to read back clear, which the stub never does.

As a program: i2c_sensors.py [--addresses 0x0e,0x0f,...] (the stub's chips, at most 10, all given when the stub
module is loaded; by default each part's own address and a second one for the two-sensor accelerometers). If
i2c-stub is already loaded, its addresses are used as they are.
"""
import argparse
import ctypes
import fcntl
import glob
import json
import os
import subprocess
import sys
import threading
import time

# ---------------------------------------------------------------------------------------------------------------
# SMBus transfers through /dev/i2c-N (linux/i2c-dev.h and linux/i2c.h), so that no i2c-tools are needed.

I2C_SLAVE_FORCE = 0x0706  # force: the kernel driver holds the address once bound
I2C_SMBUS = 0x0720
SMBUS_READ, SMBUS_WRITE = 1, 0
SMBUS_BYTE_DATA, SMBUS_WORD_DATA, SMBUS_I2C_BLOCK_DATA = 2, 3, 8
SMBUS_BLOCK_MAX = 32


class _SMBusData(ctypes.Union):
    _fields_ = [("byte", ctypes.c_uint8), ("word", ctypes.c_uint16), ("block", ctypes.c_uint8 * (SMBUS_BLOCK_MAX + 2))]


class _SMBusIoctl(ctypes.Structure):
    _fields_ = [("read_write", ctypes.c_uint8), ("command", ctypes.c_uint8), ("size", ctypes.c_uint32),
                ("data", ctypes.POINTER(_SMBusData))]


class SMBus:
    """One /dev/i2c-N, shared by threads (a lock around each transfer)."""

    def __init__(self, bus):
        self.fd = os.open(f"/dev/i2c-{bus}", os.O_RDWR)
        self.lock = threading.Lock()

    def _transfer(self, address, read_write, register, size, data):
        request = _SMBusIoctl(read_write, register, size, ctypes.pointer(data))
        with self.lock:
            fcntl.ioctl(self.fd, I2C_SLAVE_FORCE, address)
            fcntl.ioctl(self.fd, I2C_SMBUS, request)
        return data

    def write_byte(self, address, register, value):
        data = _SMBusData()
        data.byte = value
        self._transfer(address, SMBUS_WRITE, register, SMBUS_BYTE_DATA, data)

    def write_word(self, address, register, value):
        data = _SMBusData()
        data.word = value
        self._transfer(address, SMBUS_WRITE, register, SMBUS_WORD_DATA, data)

    def write_block(self, address, register, values):
        """Consecutive byte registers in one transfer: a driver reading them never sees half of the new values."""
        data = _SMBusData()
        data.block[0] = len(values)
        for index, value in enumerate(values):
            data.block[1 + index] = value
        self._transfer(address, SMBUS_WRITE, register, SMBUS_I2C_BLOCK_DATA, data)

    def read_byte(self, address, register):
        return self._transfer(address, SMBUS_READ, register, SMBUS_BYTE_DATA, _SMBusData()).byte

    def read_word(self, address, register):
        return self._transfer(address, SMBUS_READ, register, SMBUS_WORD_DATA, _SMBusData()).word


# ---------------------------------------------------------------------------------------------------------------
# Register writes. i2c-stub keeps one 16-bit word per register: a word transfer reads and writes all of it; byte
# and I2C-block transfers use only its low byte. So a driver reading words (i2c_smbus_read_word_data) is served
# with Word, and a driver reading bytes or byte blocks (regmap on this bus uses I2C-block reads) with Bytes.

class Word:
    def __init__(self, register, value):
        self.register, self.value = register, value & 0xFFFF

    def apply(self, bus, address):
        bus.write_word(address, self.register, self.value)

    def describe(self):
        return {f"0x{self.register:02x}": f"0x{self.value:04x}"}


class Bytes:
    def __init__(self, register, values):
        self.register, self.values = register, [value & 0xFF for value in values]

    def apply(self, bus, address):
        bus.write_block(address, self.register, self.values)

    def describe(self):
        return {f"0x{self.register + index:02x}": f"0x{value:02x}" for index, value in enumerate(self.values)}


def describe_writes(writes):
    registers = {}
    for write in writes:
        registers.update(write.describe())
    return registers


def signed_counts(value, scale, bits):
    """value / scale rounded to the nearest count, held to a signed `bits`-bit range."""
    limit = 1 << (bits - 1)
    return max(-limit, min(limit - 1, round(value / scale)))


def left_justified(count, bits):
    """A signed count placed in the top `bits` of 16, as these parts deliver it (the drivers shift it down)."""
    return (count << (16 - bits)) & 0xFFFF


# ---------------------------------------------------------------------------------------------------------------
# The parts. Each one: the I2C device type new_device takes, its module, its usual address, the registers it must
# read at probe (identification, power-on values), and how its readings are written. Facts from the Debian 12
# kernel's drivers (6.1.192).

class Part:
    name = ""
    i2c_type = None  # the name new_device takes, when it is not the part's name
    module = ""
    address = 0
    spare_address = None  # a second address, for a two-sensor convertible's base
    kinds = ()
    word_registers = False  # whether the driver reads it in SMBus words rather than bytes

    def power_on(self):
        """Registers as the part has them at power-up, as far as the driver reads them at probe."""
        return []

    def accel(self, counts):
        raise ValueError(f"{self.name} has no accelerometer")

    def lux(self, level, attributes):
        raise ValueError(f"{self.name} has no light sensor")

    def proximity(self, raw):
        raise ValueError(f"{self.name} has no proximity sensor")

    @property
    def device_type(self):
        return self.i2c_type or self.name

    def facts(self):
        return {"i2c_type": self.device_type, "module": self.module, "address": self.address,
                "spare_address": self.spare_address, "kinds": list(self.kinds)}


class KXCJK1013(Part):
    """Kionix KXCJK-1013 (its KXCJ9 sibling is on many Intel tablets). WHO_AM_I (0x0f) is read but not checked;
    probe sets CTRL1 (0x1b) to 0xc8: operating, 12-bit, ±4 g, and keeps DATA_CTRL's (0x21) rate. Each axis is one
    SMBus word read at 0x06 + 2 × axis, little-endian, 12 bits left-justified. Runtime PM: 2 s after the last read
    CTRL1 goes to standby (0x48); the next read sets it operating and sleeps the rate's start-up time (21 ms at
    50 Hz, about 30 ms in all here). IIO "kxcjk1013": in_accel_{x,y,z}_raw, in_accel_scale 0.019163 and
    in_accel_scale_available, in_accel_sampling_frequency 50 and in_accel_sampling_frequency_available,
    in_accel_mount_matrix (identity: no firmware node here)."""
    name = "kxcjk1013"
    module = "kxcjk-1013"
    address, spare_address = 0x0E, 0x0F
    kinds = ("accel",)
    bits = 12

    def power_on(self):
        return [Bytes(0x0F, [0x11]),  # WHO_AM_I of a KXCJK-1013
                Bytes(0x21, [0x02])]  # DATA_CTRL: 50 Hz, the data sheet's power-on rate

    def accel(self, counts):
        return [Word(0x06 + 2 * axis, left_justified(count, self.bits)) for axis, count in enumerate(counts)]


class BMC150Accel(Part):
    """Bosch BMC150/BMA255 accelerometer (BOSC0200 on Intel tablets). Probe writes the soft reset (0x14 = 0xb6),
    then requires a known chip id at 0x00 (0xfa: 12 bits), sets normal mode, 125 Hz (0x10 = 0x0b), ±4 g (0x0f =
    0x05) and latched interrupts. regmap: on this bus the two bytes of an axis (0x02 + 2 × axis, LSB first, 12
    bits left-justified) come as one I2C-block read. Runtime PM: suspended (0x11 = 0x80) 2 s after the last read,
    woken by the next, which sleeps 8 ms at 125 Hz. IIO "bmc150_accel" (the I2C type's name): in_accel_*_raw,
    in_accel_scale 0.019154 (no _available), in_accel_sampling_frequency 125 with a device-level
    sampling_frequency_available, in_mount_matrix (not in_accel_: libiio shows it as channel "mount", attribute
    "matrix"), in_temp_raw/offset/scale."""
    name = "bmc150_accel"
    module = "bmc150-accel-i2c"
    address, spare_address = 0x18, 0x19
    kinds = ("accel",)
    bits = 12

    def power_on(self):
        return [Bytes(0x00, [0xFA]),  # chip id of the BMA255/BMC150 family
                Bytes(0x08, [0x00])]  # temperature: 23 °C (in_temp_raw 0 plus the driver's offset)

    def accel(self, counts):
        values = []
        for count in counts:
            word = left_justified(count, self.bits)
            values += [word & 0xFF, word >> 8]
        return [Bytes(0x02, values)]


class MXC4005(Part):
    """Memsic MXC4005 (and MXC6655). The device id (0x0e) is read but not checked; probe writes a soft reset (0x01 =
    0x10) and clears the interrupt masks. Each axis is two bytes at 0x03 + 2 × axis, MSB first, 12 bits
    left-justified; the scale is read from CONTROL (0x0d) bits 6:5 at each read of in_accel_scale (0: ±2 g,
    0.009582). No runtime PM. IIO "mxc4005": in_accel_*_raw, in_accel_scale and in_accel_scale_available; no
    sampling frequency and no mount matrix in 6.1."""
    name = "mxc4005"
    module = "mxc4005"
    address, spare_address = 0x15, None
    kinds = ("accel",)
    bits = 12

    def power_on(self):
        return [Bytes(0x0E, [0x02]),  # device id
                Bytes(0x0D, [0x00])]  # CONTROL: ±2 g

    def accel(self, counts):
        values = []
        for count in counts:
            word = left_justified(count, self.bits)
            values += [word >> 8, word & 0xFF]
        return [Bytes(0x03, values)]


class LTR501(Part):
    """Lite-On LTR-501 light and proximity sensor. Probe requires PART_ID (0x86) >> 4 to be 0x8, reads the
    measurement rates (ALS 0x85, PS 0x84) and persistence (0x9e), then sets ALS and PS active (0x80 = 0x03, 0x81 =
    0x02). Before each read the driver polls ALS_PS_STATUS (0x8c) for the data-ready bit (bit 2 ALS, bit 0 PS),
    every 25 ms up to 100 times: it is kept set here. ALS: two little-endian channels, DATA1 (infrared, 0x88) and
    DATA0 (visible and infrared, 0x8a), read together; lux = (1774 × DATA0 + 1105 × DATA1) / 1000 while DATA1 is
    under 45 % of the sum. Proximity: 11 bits at 0x8d, little-endian. IIO "ltr501": in_illuminance_input (integer
    lux), in_intensity_both_raw, in_intensity_ir_raw, in_intensity_scale 1 (+_available),
    in_intensity_integration_time 0.1, in_intensity_sampling_frequency 2 with device-level
    sampling_frequency_available and integration_time_available, in_proximity_raw, in_proximity_scale 1
    (+_available), in_proximity_nearlevel 0 (no firmware node here)."""
    name = "ltr501"
    module = "ltr501"
    address = 0x23
    kinds = ("light", "proximity")
    ready = 0x05  # ALS_PS_STATUS: ALS and PS data ready

    def power_on(self):
        return [Bytes(0x84, [0x02, 0x03, 0x80, 0x05]),  # PS rate 100 ms, ALS rate 500 ms, part id, maker id
                Bytes(0x8C, [self.ready])]

    @staticmethod
    def channels_to_lux(visible, infrared):
        if visible == 0:
            return 0
        ratio = -(-infrared * 100 // (infrared + visible))
        if ratio < 45:
            return (1774 * visible + 1105 * infrared) // 1000
        if ratio < 64:
            return max(0, 3772 * visible - 1336 * infrared) // 1000
        if ratio < 85:
            return max(0, 1690 * visible - 169 * infrared) // 1000
        return 0

    def lux(self, level, attributes):
        for infrared in range(0, 64):
            visible = smallest_reaching(level, lambda v: self.channels_to_lux(v, infrared), 0xFFFF)
            if self.channels_to_lux(visible, infrared) == level:
                break
        values = [infrared & 0xFF, infrared >> 8, visible & 0xFF, visible >> 8, self.ready]
        return [Bytes(0x88, values)], self.channels_to_lux(visible, infrared)

    def proximity(self, raw):
        raw = max(0, min(0x7FF, raw))
        return [Bytes(0x8C, [self.ready, raw & 0xFF, raw >> 8])], raw


class STK3310(Part):
    """Sensortek STK3310 proximity and light sensor. Probe requires the chip id at 0x3e (0x13; 0x12, 0x1d, 0x51
    for its siblings), writes STATE (0x00 = 0x03) to enable both and the PS interrupt (0x04 = 0x01). Proximity
    (0x11) and light (0x13) are two bytes each, MSB first; gain and integration time come from PSCTRL (0x01) and
    ALSCTRL (0x02), through regmap's cache. No runtime PM. IIO "stk3310": in_illuminance_raw, in_illuminance_scale
    0.1, in_illuminance_integration_time 0.09472, in_proximity_raw, in_proximity_scale 0.1,
    in_proximity_integration_time 0.00037 (each with _available), in_proximity_nearlevel 0; no buffer."""
    name = "stk3310"
    i2c_type = "STK3310"  # its I2C id table has only upper-case names
    module = "stk3310"
    address = 0x48
    kinds = ("light", "proximity")

    def power_on(self):
        return [Bytes(0x01, [0x31, 0x39]),  # PSCTRL, ALSCTRL as the data sheet gives them at power-up
                Bytes(0x3E, [0x13])]       # chip id: STK3310

    def lux(self, level, attributes):
        raw = max(0, min(0xFFFF, round(level / float(attributes["in_illuminance_scale"]))))
        return [Bytes(0x13, [raw >> 8, raw & 0xFF])], raw * float(attributes["in_illuminance_scale"])

    def proximity(self, raw):
        raw = max(0, min(0xFFFF, raw))
        return [Bytes(0x11, [raw >> 8, raw & 0xFF])], raw


class VCNL4040(Part):
    """Vishay VCNL4040 proximity and light sensor, on the vcnl4000 driver. Probe reads the id word at 0x0e (0x58
    would be a VCNL4200), then at 0x0c (low byte 0x86), and powers both up (words at 0x00 and 0x03 set to 0).
    Proximity (0x08) and light (0x09) are SMBus words. A read waits until one measurement period (96 ms light, 6
    ms proximity) has passed since power-up or the previous read of that channel, so light reads come at most
    about 10 a second; runtime PM powers it down 2 s after the last read. IIO "vcnl4000" for every variant:
    in_illuminance_raw, in_illuminance_scale 0.12, in_proximity_raw, in_proximity_nearlevel 0; no sampling
    frequency, no buffer. (The older VCNL4000/4010/4020 cannot work here: the driver starts a measurement by
    writing the command register and waits for a ready bit in that same register, which the stub never sets.)"""
    name = "vcnl4040"
    module = "vcnl4000"
    address = 0x60
    kinds = ("light", "proximity")
    word_registers = True

    def power_on(self):
        return [Word(0x0C, 0x0186)]  # device id 0x86, revision 1

    def lux(self, level, attributes):
        scale = float(attributes["in_illuminance_scale"])
        raw = max(0, min(0xFFFF, round(level / scale)))
        return [Word(0x09, raw)], raw * scale

    def proximity(self, raw):
        raw = max(0, min(0xFFFF, raw))
        return [Word(0x08, raw)], raw


PARTS = {part.name: part for part in (KXCJK1013(), BMC150Accel(), MXC4005(), LTR501(), STK3310(), VCNL4040())}


def smallest_reaching(level, reads, largest):
    """The smallest count in 0..largest that `reads` (increasing) turns into at least `level`; `largest` if none."""
    low, high = 0, largest
    while low < high:
        middle = (low + high) // 2
        if reads(middle) >= level:
            high = middle
        else:
            low = middle + 1
    return low


# ---------------------------------------------------------------------------------------------------------------
# The stub bus.

STUB_NAME = "SMBus stub driver"


def default_addresses():
    addresses = []
    for part in PARTS.values():
        for address in (part.address, part.spare_address):
            if address is not None and address not in addresses:
                addresses.append(address)
    return addresses


def modprobe(*arguments):
    result = subprocess.run(["modprobe", *arguments], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"modprobe {' '.join(arguments)}: {result.stderr.strip()}")


def kernel_log():
    """The kernel log's lines (dmesg): a failed probe says why there."""
    return subprocess.run(["dmesg"], capture_output=True, text=True).stdout.splitlines()


def read_text(path):
    with open(path) as file:
        return file.read().strip()


def write_text(path, text):
    with open(path, "w") as file:
        file.write(text)


class StubBus:
    """i2c-stub's bus: loaded with its chip addresses, found by name, its devices added and deleted."""

    def __init__(self, addresses=None):
        if not os.path.exists("/sys/module/i2c_stub"):
            wanted = addresses or default_addresses()
            modprobe("i2c-stub", "chip_addr=" + ",".join(f"0x{address:02x}" for address in wanted))
        modprobe("i2c-dev")
        self.addresses = [int(value) for value in read_text("/sys/module/i2c_stub/parameters/chip_addr").split(",")
                          if int(value) != 0]
        self.number = self._find_number()
        self.folder = f"/sys/bus/i2c/devices/i2c-{self.number}"
        self.smbus = SMBus(self.number)

    @staticmethod
    def _find_number():
        # Not always i2c-0: the machine's own SMBus adapters come first.
        for name_file in glob.glob("/sys/bus/i2c/devices/i2c-*/name"):
            if read_text(name_file) == STUB_NAME:
                return int(name_file.split("/")[-2].split("-")[1])
        raise RuntimeError(f"no I2C bus named {STUB_NAME!r}")

    def client_folder(self, address):
        return f"/sys/bus/i2c/devices/{self.number}-{address:04x}"

    def clear(self, address):
        """Every register 0, as a power cycle would leave a real part before its own defaults."""
        for register in range(256):
            self.smbus.write_word(address, register, 0)

    def new_device(self, kind, address):
        write_text(f"{self.folder}/new_device", f"{kind} 0x{address:02x}")

    def delete_device(self, address):
        write_text(f"{self.folder}/delete_device", f"0x{address:02x}")


# ---------------------------------------------------------------------------------------------------------------
# Devices: a bound part and its IIO device.

def attributes_of(folder):
    """The readable attribute files directly in an IIO device's folder, with their text (unreadable ones left out)."""
    values = {}
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if not os.path.isfile(path) or name == "uevent" or not os.access(path, os.R_OK):
            continue
        try:
            values[name] = read_text(path)
        except OSError as error:
            values[name] = f"<{error.strerror}>"
    return values


class Device:
    def __init__(self, bus, part, address, path):
        self.bus, self.part, self.address, self.path = bus, part, address, path
        self.id = os.path.basename(path)
        self.player = None  # the playback thread's stop event

    def attribute(self, name):
        return read_text(os.path.join(self.path, name))

    def has(self, name):
        return os.path.exists(os.path.join(self.path, name))

    def write(self, writes):
        for write in writes:
            write.apply(self.bus.smbus, self.address)

    def accel_scale(self):
        return float(self.attribute("in_accel_scale"))

    def set_accel(self, values, scale=None):
        scale = scale or self.accel_scale()
        counts = [signed_counts(value, scale, self.part.bits) for value in values]
        self.write(self.part.accel(counts))
        return counts, scale

    def set_lux(self, level):
        names = ("in_illuminance_integration_time", "in_illuminance_calibscale", "in_illuminance_scale")
        attributes = {name: self.attribute(name) for name in names if self.has(name)}
        writes, reads = self.part.lux(level, attributes)
        self.write(writes)
        return writes, reads

    def set_proximity(self, raw):
        writes, raw = self.part.proximity(raw)
        self.write(writes)
        return raw

    def read(self):
        """What sysfs reads now, each kind as orientd would use it."""
        reading = {}
        if "accel" in self.part.kinds:
            scale = self.accel_scale()
            reading["accel"] = [int(self.attribute(f"in_accel_{axis}_raw")) * scale for axis in "xyz"]
        if "light" in self.part.kinds:
            if self.has("in_illuminance_input"):
                reading["lux"] = float(self.attribute("in_illuminance_input"))
            else:
                scale = float(self.attribute("in_illuminance_scale")) if self.has("in_illuminance_scale") else 1.0
                reading["lux"] = int(self.attribute("in_illuminance_raw")) * scale
        if "proximity" in self.part.kinds:
            reading["proximity"] = int(self.attribute("in_proximity_raw"))
        return reading

    def registers(self):
        smbus, words = self.bus.smbus, self.part.word_registers
        values = {}
        for register in range(256):
            value = smbus.read_word(self.address, register) if words else smbus.read_byte(self.address, register)
            if value:
                values[f"0x{register:02x}"] = f"0x{value:04x}" if words else f"0x{value:02x}"
        return values

    def describe(self):
        return {"name": self.attribute("name"), "part": self.part.name, "address": self.address,
                "attributes": attributes_of(self.path)}


class Sensors:
    """The bus and the devices bound on it."""

    def __init__(self, addresses=None):
        self.bus = StubBus(addresses)
        self.devices = {}  # id -> Device

    def add(self, part_name, address=None, timeout=5.0):
        part = PARTS.get(part_name)
        if part is None:
            raise ValueError(f"unknown part {part_name!r}; known: {', '.join(PARTS)}")
        address = part.address if address is None else int(str(address), 0)
        if address not in self.bus.addresses:
            raise ValueError(f"0x{address:02x} is not one of the stub's chips "
                             f"({', '.join(f'0x{a:02x}' for a in self.bus.addresses)})")
        if os.path.exists(self.bus.client_folder(address)):
            raise ValueError(f"0x{address:02x} is bound already; remove it first")
        modprobe(part.module)  # loaded first, so that it probes within new_device and a failure shows at once
        self.bus.clear(address)
        for write in part.power_on():
            write.apply(self.bus.smbus, address)
        mark = len(kernel_log())
        self.bus.new_device(part.device_type, address)
        path = self._wait_for_iio(address, timeout)
        if path is None:
            log = kernel_log()[mark:]
            self.bus.delete_device(address)
            raise RuntimeError(f"{part.name} at 0x{address:02x} made no IIO device; kernel log: {log}")
        device = Device(self.bus, part, address, path)
        self.devices[device.id] = device
        return device

    def _wait_for_iio(self, address, timeout):
        # The driver probes within the new_device write: a client left without a driver failed its probe, or no
        # driver matched its name. The IIO folder is made during the probe, but wait a little for it all the same.
        client = self.bus.client_folder(address)
        deadline = time.monotonic() + timeout
        while os.path.exists(f"{client}/driver") and time.monotonic() < deadline:
            found = glob.glob(f"{client}/iio:device*")
            if found:
                return "/sys/bus/iio/devices/" + os.path.basename(found[0])
            time.sleep(0.05)
        return None

    def find(self, reference):
        device = self.devices.get(os.path.basename(str(reference).rstrip("/")))
        if device is None:
            raise ValueError(f"no device {reference!r} added here")
        return device

    def remove(self, device):
        self.stop(device)
        self.bus.delete_device(device.address)
        del self.devices[device.id]

    def stop(self, device):
        """Stops the device's playback and waits for its thread, so that no line of it lands after this."""
        if device.player is not None:
            stop, thread = device.player
            stop.set()
            if thread is not None and thread is not threading.current_thread():
                thread.join(timeout=2)
            device.player = None

    def play(self, trace_path, display, base=None, speed=1.0, wait=False):
        """Sets the accelerometers at each trace line's time / speed. Returns (lines, seconds, lateness or None)."""
        if speed <= 0:
            raise ValueError("speed must be above 0")
        lines = read_trace(trace_path)
        if not lines:
            raise ValueError(f"{trace_path}: no readings")
        players = [display] + ([base] if base is not None else [])
        for device in players:
            self.stop(device)
        # The scale is read once: a trace at 50 Hz need not read sysfs fifty times a second more.
        scales = [device.accel_scale() for device in players]
        stop, outcome = threading.Event(), {}

        def run():
            start, first = time.monotonic(), lines[0][0]
            worst = 0.0
            for t, display_values, base_values in lines:
                due = start + (t - first) / speed
                if stop.wait(max(0.0, due - time.monotonic())):
                    return
                worst = max(worst, time.monotonic() - due)
                display.set_accel(display_values, scales[0])
                if base is not None and base_values is not None:
                    base.set_accel(base_values, scales[1])
            outcome["late"] = worst

        seconds = (lines[-1][0] - lines[0][0]) / speed
        thread = None if wait else threading.Thread(target=run, daemon=True)
        for device in players:
            device.player = (stop, thread)
        if wait:
            run()
            for device in players:
                device.player = None
            return len(lines), seconds, outcome.get("late")
        thread.start()
        return len(lines), seconds, None


def read_trace(path):
    """An orientd trace (docs/traces-and-tools.md): [(t, (x, y, z), (bx, by, bz) or None)], m/s² in each sensor's
    own frame. Metadata and comments are skipped; the header row says whether the base columns are there."""
    readings, columns = [], None
    with open(path) as file:
        for number, line in enumerate(file, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if columns is None:
                columns = line.split(",")
                if columns not in (["t", "x", "y", "z"], ["t", "x", "y", "z", "bx", "by", "bz"]):
                    raise ValueError(f"{path}:{number}: expected the header t,x,y,z or t,x,y,z,bx,by,bz")
                continue
            fields = [float(field) for field in line.split(",")]
            if len(fields) != len(columns):
                raise ValueError(f"{path}:{number}: expected {len(columns)} columns, found {len(fields)}")
            readings.append((fields[0], tuple(fields[1:4]), tuple(fields[4:7]) if len(fields) == 7 else None))
    return readings


# ---------------------------------------------------------------------------------------------------------------
# The JSON-lines interface.

def answer(sensors, command):
    if "add" in command:
        device = sensors.add(command["add"], command.get("address"), command.get("timeout", 5.0))
        reply = {"path": device.path, "id": device.id, "name": device.attribute("name"), "part": device.part.name,
                 "address": device.address, "client": sensors.bus.client_folder(device.address)}
        for key in ("accel", "lux", "proximity"):
            if key in command:
                reply.update(answer(sensors, {"set": device.id, key: command[key]}))
                reply.pop("ok", None)
        return reply
    if "set" in command:
        device = sensors.find(command["set"])
        sensors.stop(device)
        if "accel" in command:
            counts, scale = device.set_accel(command["accel"])
            return {"ok": True, "raw": counts, "scale": scale}
        if "lux" in command:
            writes, reads = device.set_lux(command["lux"])
            return {"ok": True, "registers": describe_writes(writes), "reads": reads}
        if "proximity" in command:
            return {"ok": True, "raw": device.set_proximity(command["proximity"])}
        raise ValueError("set needs accel, lux or proximity")
    if "play" in command:
        display = sensors.find(command["device"])
        base = sensors.find(command["base"]) if "base" in command else None
        lines, seconds, late = sensors.play(command["play"], display, base, float(command.get("speed", 1)),
                                            bool(command.get("wait")))
        reply = {"ok": True, "lines": lines, "seconds": seconds}
        if late is not None:
            reply["late"] = late
        return reply
    if "stop" in command:
        sensors.stop(sensors.find(command["stop"]))
        return {"ok": True}
    if "read" in command:
        return sensors.find(command["read"]).read()
    if "describe" in command:
        return sensors.find(command["describe"]).describe()
    if "registers" in command:
        return {"registers": sensors.find(command["registers"]).registers()}
    if "remove" in command:
        sensors.remove(sensors.find(command["remove"]))
        return {"ok": True}
    if "parts" in command:
        return {"parts": {name: part.facts() for name, part in PARTS.items()}}
    raise ValueError(f"unknown command {json.dumps(command)}")


def serve(sensors, lines=sys.stdin, out=sys.stdout):
    print(json.dumps({"ready": True, "bus": sensors.bus.number, "addresses": sensors.bus.addresses}), file=out,
          flush=True)
    for line in lines:
        if not line.strip():
            continue
        try:
            reply = answer(sensors, json.loads(line))
        except Exception as error:  # one bad command answers an error; the devices stay as they are
            reply = {"error": f"{type(error).__name__}: {error}"}
        print(json.dumps(reply), file=out, flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--addresses", help="the stub's chip addresses, comma-separated (at most 10)")
    arguments = parser.parse_args()
    addresses = [int(text, 0) for text in arguments.addresses.split(",")] if arguments.addresses else None
    serve(Sensors(addresses))


if __name__ == "__main__":
    main()
