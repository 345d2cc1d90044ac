"""The light and proximity sensors and the compass through the kernel's own drivers: a HID sensor hub's (hid-sensor-als,
hid-sensor-prox, hid-sensor-magn-3d) and I2C parts on i2c-stub (ltr501, stk3310, vcnl4040), each found, scaled and read
right by a socket client (`orientctl monitor --light --proximity`) and a D-Bus claimant (iio-sensor-proxy's
monitor-sensor). The light filter is off (light-threshold = 0), as the unit tests set it: it is tested on its own."""
import subprocess
import unittest

from guest import PATIENCE, BusClient, Fixture, KernelTestCase, Monitor, MonitorSensor, settle, wait_for


def light_of(line):
    return line.get("level") if line.get("event") == "light" and line.get("present") else None


def near_of(line):
    return line.get("near") if line.get("event") == "proximity" and line.get("present") else None


class ReadingsTestCase(KernelTestCase):
    settings = "light-threshold = 0"

    def socket_client(self):
        monitor = Monitor("--light", "--proximity")
        self.addCleanup(monitor.close)
        return monitor

    def claimant(self, kind):
        claimant = MonitorSensor(f"--{kind}")
        self.addCleanup(claimant.close)
        return claimant


class HIDHubReadingTests(ReadingsTestCase):
    def hub(self, sensors):
        hub = Fixture("hid_hub.py", "--sensors", sensors)
        self.addCleanup(hub.close)
        return hub

    def test_light(self):
        hub = self.hub("als")
        hub.request({"set": "als", "lux": 120})
        hub.request({"devices": True})
        settle()
        monitor = self.socket_client()
        monitor.wait_for(lambda line: light_of(line) == 120, what="120 lux on the socket")
        claimant = self.claimant("light")
        claimant.wait_for(lambda line: "value: 120.000000, unit: lux" in line or "Light changed: 120.000000 (lux)" in line,
                          what="120 lux on D-Bus")
        hub.request({"set": "als", "lux": 523.5})
        monitor.wait_for(lambda line: light_of(line) == 523.5, what="523.5 lux on the socket")
        claimant.wait_for(lambda line: "Light changed: 523.500000 (lux)" in line, what="523.5 lux on D-Bus")

    def test_proximity(self):
        # As a machine's hwdb or udev rule says it (60-sensor.hwdb's PROXIMITY_NEAR_LEVEL): the driver has no near
        # level of its own (guest_main.sh's rule sets 100).
        hub = self.hub("prox")
        hub.request({"set": "prox", "value": 10})
        hub.request({"devices": True})
        settle()
        monitor = self.socket_client()
        monitor.wait_for(lambda line: near_of(line) is False, what="far on the socket")
        claimant = self.claimant("proximity")
        claimant.wait_for(lambda line: "near: 0" in line or "Proximity value changed: 0" in line, what="far on D-Bus")
        hub.request({"set": "prox", "value": 200})
        monitor.wait_for(lambda line: near_of(line) is True, what="near on the socket")
        claimant.wait_for(lambda line: "Proximity value changed: 1" in line, what="near on D-Bus")

    def test_compass(self):
        """On D-Bus only (a heading helps locate a person): claimed by a GIO client, as geoclue claims it."""
        hub = self.hub("compass")
        hub.request({"set": "compass", "heading": 90})
        hub.request({"devices": True})
        settle()
        # The first connection to the socket starts the service (the guest has no systemd to start it for D-Bus).
        subprocess.run(["/usr/bin/orientctl", "status"], capture_output=True, timeout=PATIENCE)
        client = BusClient()
        self.addCleanup(client.close)
        self.assertEqual(client.ask("claim-compass"), "ok")

        def heading():
            return client.ask("compass-get CompassHeading")

        wait_for(lambda: heading() == "value 90.0", what=f"a heading of 90° on D-Bus; it said {heading()}")
        hub.request({"set": "compass", "heading": 273})
        wait_for(lambda: heading() == "value 273.0", what=f"273° on D-Bus; it said {heading()}")


class I2CReadingTests(ReadingsTestCase):
    """Light and proximity parts on i2c-stub: polled, as the stub raises no interrupt."""

    def setUp(self):
        super().setUp()
        self.parts = Fixture("i2c_sensors.py")
        self.addCleanup(self.parts.close)

    def follow(self, part, lux=None, proximity=None):
        added = self.parts.request({"add": part, **({"lux": lux[0]} if lux else {}),
                                    **({"proximity": proximity[0]} if proximity else {})})
        self.addCleanup(self.parts.request, {"remove": added["id"]})
        settle()
        monitor = self.socket_client()
        if lux:
            monitor.wait_for(lambda line: light_of(line) == lux[0], what=f"{part}: {lux[0]} lux")
            self.parts.request({"set": added["id"], "lux": lux[1]})
            monitor.wait_for(lambda line: light_of(line) == lux[1], what=f"{part}: {lux[1]} lux")
        if proximity:
            # Proximity is a stream of its own: its first reading may come before or after the light's.
            monitor.wait_for(lambda line: near_of(line) is False, what=f"{part}: far", since=0)
            self.parts.request({"set": added["id"], "proximity": proximity[1]})
            monitor.wait_for(lambda line: near_of(line) is True, what=f"{part}: near")

    def test_ltr501(self):
        self.follow("ltr501", lux=(120, 350), proximity=(20, 300))

    def test_stk3310(self):
        self.follow("stk3310", lux=(120, 350), proximity=(20, 300))

    def test_vcnl4040(self):
        self.follow("vcnl4040", lux=(120, 360), proximity=(20, 300))


if __name__ == "__main__":
    unittest.main()
