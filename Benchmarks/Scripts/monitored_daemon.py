"""A daemon on a private bus of its own, claimed there by iio-sensor-proxy's client monitor-sensor, whose lines
are timestamped as they come: what side-by-side.py and light-hunting.py run each daemon under, so that both are
measured through the same D-Bus path. Imported by those scripts, not run."""
import os
import subprocess
import tempfile
import threading
import time

import polkit


class MonitoredDaemon:
    """Runs `command` with `environment` and DBUS_SYSTEM_BUS_ADDRESS set to a private bus. With `claims`
    (monitor-sensor's options, such as --accel), monitor-sensor claims those sensors a second later, and each line
    that `parse` turns into a value is kept in `changes` as (monotonic time, value)."""

    def __init__(self, label, command, environment, claims=()):
        self.label = label
        self.bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                                    stdout=subprocess.PIPE, text=True)
        address = self.bus.stdout.readline().strip()
        # orientd asks polkit at every claim; iio-sensor-proxy 3.0 does not.
        self.polkit = polkit.start(address)
        self.process = subprocess.Popen(command, env=dict(environment, DBUS_SYSTEM_BUS_ADDRESS=address),
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.pid = self.process.pid
        self.changes = []
        self.monitor = None
        if claims:
            time.sleep(1)
            self.monitor = subprocess.Popen(
                ["stdbuf", "-oL", "monitor-sensor", *claims], stdout=subprocess.PIPE, text=True,
                env=dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=address))
            threading.Thread(target=self._read, daemon=True).start()

    def parse(self, line):
        """The value a monitor-sensor line reports, or None for a line that does not count."""
        raise NotImplementedError

    def _read(self):
        for line in self.monitor.stdout:
            value = self.parse(line)
            if value is not None:
                self.changes.append((time.monotonic(), value))

    def stop(self):
        for process in (self.monitor, self.process, self.polkit, self.bus):
            if process:
                process.terminate()
                process.wait()


def orientd_command(binary, prefix, extra=()):
    """`orientd run` with its D-Bus facade, no configuration file, and its socket and state in a new folder named
    after `prefix`; `extra` arguments last."""
    folder = tempfile.mkdtemp(prefix=prefix)
    return [binary, "run", "--dbus", "--config", "/dev/null", "--socket", os.path.join(folder, "orientd.sock"),
            "--state-directory", os.path.join(folder, "state"), *extra]


def settle(daemons):
    """Gives the daemons 3 s to start and their clients to claim; exits naming one that did not survive it."""
    time.sleep(3)
    for daemon in daemons:
        if daemon.process.poll() is not None:
            raise SystemExit(f"{daemon.label} exited with {daemon.process.returncode}")

