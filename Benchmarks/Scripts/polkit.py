"""polkit for a private bus: python-dbusmock's polkitd, allowing net.hadess.SensorProxy.claim-sensor (the tests'
template, Tests/OrientdTests/Fixtures/polkitd_claims.py), since orientd asks polkit at every claim and refuses the
claim where polkit is absent. Imported by the scripts that claim sensors on a private bus, not run."""
import os
import subprocess
import time

TEMPLATE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "OrientdTests", "Fixtures",
                        "polkitd_claims.py")


def start(address):
    """Starts the mock on the bus at `address` and waits until it owns its name; returns the process."""
    process = subprocess.Popen(
        ["/usr/bin/python3", "-m", "dbusmock", "--system", "--template", TEMPLATE],
        env=dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=address), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        owned = subprocess.run(["busctl", f"--address={address}", "status", "org.freedesktop.PolicyKit1"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
        if owned:
            return process
        time.sleep(0.1)
    process.kill()
    raise RuntimeError("python-dbusmock's polkitd did not start")
