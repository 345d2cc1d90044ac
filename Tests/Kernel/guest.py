"""What the real-kernel tests share, inside the virtme-ng guest that scripts/test-kernel.sh boots.

Tests/Kernel/guest_main.sh has already installed orientd there as `make install PREFIX=/usr` installs it (into the
guest's throw-away overlays of /etc, /usr and /var), started systemd-udevd with the host's rules and orientd's,
a system bus with orientd's policy, and python-dbusmock's polkitd. From here:

- `Service` acts orientd.socket and orientd.service out with scripts/unit-stand-in.py, as systemd would (no systemd
  runs as the guest's PID 1): the socket at /run/orientd/orientd.sock, the daemon started at the first connection
  as user orientd, from the installed unit and its drop-ins.
- `Fixture` runs a JSON-lines fixture program (the HID sensor hub, hid_hub.py; the i2c-stub sensors,
  i2c_sensors.py) and sends it commands.
- `orientctl`, `get` and `Monitor` are the installed client, as a script would run it.
"""
import json
import os
import pathlib
import select
import signal
import subprocess
import sys
import time
import unittest

REPO = pathlib.Path(__file__).resolve().parents[2]
KERNEL_TESTS = REPO / "Tests" / "Kernel"
UNIT = pathlib.Path("/etc/systemd/system/orientd.service")
KEEPER_UNIT = pathlib.Path("/etc/systemd/system/orientd-tablet-mode-switch.service")
SOCKET = "/run/orientd/orientd.sock"
CONFIGURATION = pathlib.Path("/etc/orientd/orientd.conf")
# The guest runs under software emulation: what takes 0.1 s on the host can take a second here.
PATIENCE = float(os.environ.get("ORIENTD_KERNEL_PATIENCE", "20"))


def wait_for(condition, timeout=PATIENCE, interval=0.1, what="the condition"):
    """Calls `condition` until it returns something true, and returns that; fails the test after `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s for {what}")
        time.sleep(interval)


def settle():
    """udev has run its rules (orientd's gives its group the capture files) once its queue is empty. `udevadm settle`
    itself failed once in five full runs under emulation ("Failed to wait for daemon to reply: Broken pipe", udevd
    alive and the queue emptying), so a failure is tried again, twice, before it fails the test. It is given three
    times the usual patience (udevadm's own default is 120 s): with the host's CPUs busy, a hub's removal and
    return once kept udevd busy past 20 s."""
    for attempt in range(3):
        result = subprocess.run(["udevadm", "settle", f"--timeout={int(PATIENCE * 3)}"], capture_output=True, text=True,
                                timeout=PATIENCE * 3 + 5)
        if result.returncode == 0:
            return
        time.sleep(0.5)
    raise AssertionError(f"udevadm settle failed 3 times: {result.returncode}: {result.stderr.strip()}")


def orientctl(*arguments, timeout=PATIENCE):
    """The installed orientctl, its output captured."""
    return subprocess.run(["/usr/bin/orientctl", *arguments], capture_output=True, text=True, timeout=timeout)


def get():
    """`orientctl get --json`, as a dictionary."""
    result = orientctl("get", "--json")
    if result.returncode != 0:
        raise AssertionError(f"orientctl get: {result.returncode}: {result.stderr}")
    return json.loads(result.stdout)


def status():
    """`orientctl status --json`, as a dictionary."""
    result = orientctl("status", "--json")
    if result.returncode != 0:
        raise AssertionError(f"orientctl status: {result.returncode}: {result.stderr}")
    return json.loads(result.stdout)


def stop_stand_in(process):
    """Stops a unit stand-in as systemctl stop would (SIGTERM: it stops its service first), killing it if it hangs."""
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=PATIENCE)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class StandInFolder:
    """What scripts/unit-stand-in.py keeps in a unit's state folder (`folder`): its log, with the service's standard
    error as the journal would hold it, and the running service's pid."""

    @property
    def log(self):
        path = self.folder / "stand-in.log"
        return path.read_text() if path.exists() else ""

    @property
    def pid(self):
        """The running service's pid, or None while none runs."""
        path = self.folder / "service.pid"
        return int(path.read_text()) if path.exists() else None


class Service(StandInFolder):
    """orientd.socket and orientd.service, as the package installs them, acted out by scripts/unit-stand-in.py."""

    def __init__(self, name="service"):
        self.folder = pathlib.Path("/run/orientd-tests") / name
        self.process = None

    def start(self, settings=""):
        """Starts the socket with `settings` (lines of orientd.conf) added to the installed configuration."""
        self.folder.mkdir(parents=True, exist_ok=True)
        installed = pathlib.Path("/run/orientd-tests/orientd.conf.installed")
        if not installed.exists():
            installed.write_text(CONFIGURATION.read_text())
        # Top-level keys go before the sample's [classifier] section.
        text = installed.read_text()
        head, section, tail = text.partition("\n[classifier]")
        CONFIGURATION.write_text(head + "\n" + settings + "\n" + section + tail)
        os.makedirs(os.path.dirname(SOCKET), exist_ok=True)
        # ORIENTD_KERNEL_LOG_LEVEL=debug (scripts/test-kernel.sh passes it on) adds the daemon's debug lines.
        extra = ["--", "--log-level", os.environ["ORIENTD_KERNEL_LOG_LEVEL"]] if "ORIENTD_KERNEL_LOG_LEVEL" in os.environ else []
        with open(self.folder / "stand-in.out", "a") as log:
            self.process = subprocess.Popen(
                ["python3", str(REPO / "scripts" / "unit-stand-in.py"), str(UNIT), SOCKET, str(self.folder), *extra],
                stdout=log, stderr=subprocess.STDOUT)
        wait_for(lambda: os.path.exists(SOCKET), what="orientd.socket to listen")

    def stop(self):
        if self.process is None:
            return
        stop_stand_in(self.process)
        self.process = None


class Keeper(StandInFolder):
    """orientd-tablet-mode-switch.service as the package installs it (started by udev where a base accelerometer
    or a hinge sensor is), acted out by scripts/unit-stand-in.py: as user orientd-switch, after its ExecStartPre gives that user
    /dev/uinput."""

    def __init__(self, name="keeper"):
        self.folder = pathlib.Path("/run/orientd-tests") / name
        self.folder.mkdir(parents=True, exist_ok=True)
        with open(self.folder / "stand-in.out", "a") as log:
            self.process = subprocess.Popen(
                ["python3", str(REPO / "scripts" / "unit-stand-in.py"), str(KEEPER_UNIT), "-", str(self.folder)],
                stdout=log, stderr=subprocess.STDOUT)

    def stop(self):
        stop_stand_in(self.process)


class Fixture:
    """A fixture program that takes one JSON command a line on standard input and answers each with one JSON line,
    after a first line of its own (`{"ready": ...}` or `{"root": ...}`)."""

    def __init__(self, script, *arguments, log_name=None):
        self.log_path = pathlib.Path("/run/orientd-tests") / (log_name or pathlib.Path(script).stem + ".log")
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "a") as log:
            self.process = subprocess.Popen(
                ["python3", str(KERNEL_TESTS / script), *arguments], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=log, bufsize=0)
        self._pending = b""
        self.first = self._read_line(PATIENCE * 3)

    def _read_line(self, timeout):
        deadline = time.monotonic() + timeout
        while b"\n" not in self._pending:
            remaining = deadline - time.monotonic()
            ready, _, _ = select.select([self.process.stdout], [], [], max(0, remaining))
            if not ready:
                raise AssertionError(f"{self.process.args[1]} said nothing for {timeout} s; its log:\n{self.stderr}")
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                raise AssertionError(f"{self.process.args[1]} ended; its log:\n{self.stderr}")
            self._pending += chunk
        line, self._pending = self._pending.split(b"\n", 1)
        return json.loads(line)

    def request(self, command, timeout=PATIENCE * 3):
        self.process.stdin.write((json.dumps(command) + "\n").encode())
        self.process.stdin.flush()
        answer = self._read_line(timeout)
        if "error" in answer:
            raise AssertionError(f"{command}: {answer['error']}")
        return answer

    @property
    def stderr(self):
        return self.log_path.read_text() if self.log_path.exists() else ""

    def close(self):
        if self.process.poll() is None:
            self._keep_final_state()
            self.process.stdin.close()
            try:
                self.process.wait(timeout=PATIENCE)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdout.close()

    def _keep_final_state(self):
        """A hub's last word on each sensor (what the driver set, what was sent and asked), kept for the log of a
        test that fails: a reading that never came is the hub's doing or the daemon's, and only this tells which."""
        for sensor in (self.first or {}).get("sensors", {}):
            try:
                state = self.request({"state": sensor}, timeout=PATIENCE / 4)
            except AssertionError as error:
                state = f"no state: {error}"
            FINAL_STATES.append(f"{self.log_path.stem} {sensor} at close: {json.dumps(state)}")


# The hubs' final states in the running test, printed when it fails (KernelTestCase).
FINAL_STATES = []


class BusClient:
    """The unit tests' GIO client of the facade (Tests/OrientdTests/Fixtures/bus_client.py), on the system bus: one
    command a line (`claim-compass`, `compass-get CompassHeading` ...), one answer a line."""

    def __init__(self):
        self.process = subprocess.Popen(
            ["python3", "-u", str(REPO / "Tests" / "OrientdTests" / "Fixtures" / "bus_client.py")], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, bufsize=0)
        self._pending = b""
        self.ready = self._line()

    def _line(self, timeout=PATIENCE):
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" in self._pending:
                line, self._pending = self._pending.split(b"\n", 1)
                text = line.decode(errors="replace")
                if not text.startswith("signal "):
                    return text
            ready, _, _ = select.select([self.process.stdout], [], [], max(0, deadline - time.monotonic()))
            chunk = os.read(self.process.stdout.fileno(), 65536) if ready else b""
            if not chunk:
                raise AssertionError(f"bus_client.py said nothing more for {timeout} s")
            self._pending += chunk

    def ask(self, command):
        self.process.stdin.write((command + "\n").encode())
        self.process.stdin.flush()
        return self._line()

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=PATIENCE)
        self.process.stdout.close()


class Lines:
    """A program running, its lines collected as they come (`parse` turns each into what is kept)."""

    def __init__(self, command, parse=lambda line: line):
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, bufsize=0)
        self.parse = parse
        self.lines = []
        # Where the next wait_for starts looking: waits are in order, each after the line the last one found.
        self.searched_to = 0
        self._partial = b""

    def _collect(self, timeout):
        # The descriptor itself, not a buffered file: select must see every byte not yet taken.
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        if not ready:
            return False
        chunk = os.read(self.process.stdout.fileno(), 65536)
        if not chunk:
            return False
        *complete, self._partial = (self._partial + chunk).split(b"\n")
        self.lines += [self.parse(line.decode(errors="replace")) for line in complete]
        return True

    def wait_for(self, condition, timeout=PATIENCE, what="a line", since=None):
        """The first line for which `condition` holds, printed after the one the last wait found (or from line
        `since`, for a line of a stream of its own whose order against the others does not matter), so far or within
        `timeout`."""
        deadline = time.monotonic() + timeout
        seen = self.searched_to if since is None else since
        while True:
            for index in range(seen, len(self.lines)):
                if condition(self.lines[index]):
                    self.searched_to = max(self.searched_to, index + 1)
                    return self.lines[index]
            seen = len(self.lines)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"waited {timeout} s for {what}; {self.process.args[0]} printed {self.lines}")
            self._collect(min(remaining, 0.5))

    def close(self):
        self.process.terminate()
        self.process.wait()
        self.process.stdout.close()


class Monitor(Lines):
    """`orientctl monitor --json` running: a socket client's every state, as dictionaries."""

    def __init__(self, *arguments):
        # orientctl's own messages (standard error, merged) are kept as {"text": ...}.
        super().__init__(["/usr/bin/orientctl", "monitor", "--json", *arguments],
                         parse=lambda line: json.loads(line) if line.startswith("{") else {"text": line})


class MonitorSensor(Lines):
    """iio-sensor-proxy's own client, `monitor-sensor`, on the system bus: a D-Bus claimant, as GNOME is one."""

    def __init__(self, *arguments):
        # Line-buffered: its output is a pipe here.
        super().__init__(["stdbuf", "-oL", "monitor-sensor", *arguments])


class KernelTestCase(unittest.TestCase):
    """A test with the service started fresh for it (settings from `settings`) and stopped after it, its log
    printed when the test fails."""

    settings = ""

    def setUp(self):
        FINAL_STATES.clear()
        self.service = Service(self.id().rsplit(".", 1)[-1])
        self.service.start(self.settings)
        self.addCleanup(self.service.stop)

    def run(self, result=None):
        result = super().run(result)
        if result is not None and any(test is self for test, _ in result.failures + result.errors):
            # On unittest's own stream, so that it stays in order with the failure it explains. A test whose own
            # setUp failed before this one's ran has no service, and unittest's report is all there is.
            service = getattr(self, "service", None)
            if service is not None:
                sys.stderr.write(f"\n--- the daemon's log for {self.id()} ---\n{service.log}--- end of log ---\n")
            for state in FINAL_STATES:
                sys.stderr.write(state + "\n")
            sys.stderr.flush()
        return result
