#!/usr/bin/python3
"""Start and stop the daemon many times on an emulated sensor, and fail if any run does not end in time.

Each cycle starts `orientd run --dbus` under umockdev (an emulated accelerometer, light sensor and proximity
sensor) on a private system bus, then, each chosen at random: a D-Bus client claims the accelerometer, and often
the light sensor and the proximity sensor too (Fixtures/bus_client.py, through GIO as mutter,
gnome-settings-daemon and Phosh do), a socket client subscribes (`orientctl monitor`, often with `--light`), SIGHUP
arrives at a random moment, and SIGTERM at a random moment. Each claim and subscription is answered before the
stop is sent: the stop lands on a daemon that is serving them, not on one still setting them up. Every few cycles a second daemon is started on the live socket, as an operator's slip would. A
stopped daemon must exit with 0 within the bound; the second one with 70 ("is in use"). A run that does not end
is a hang: its threads' backtraces (gdb) are printed, it is killed, and the script fails.

    stop_stress.py ORIENTD ORIENTCTL [--cycles N] [--seconds S] [--min-cycles N] [--bound SECONDS] [--load N]

--load N keeps N busy-looping processes running meanwhile (the machine under load). Stops after N cycles or S
seconds, whichever comes first, and fails when fewer than --min-cycles ran (a run cut short by time proves little). The last line says how many cycles ran: "stop cycles: N passed, N failed".
"""
import argparse
import json
import os
import random
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

# The system Python: the fixtures need its gi (umockdev, GIO) bindings.
PYTHON = "/usr/bin/python3"
HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "OrientdTests", "Fixtures")
POLKIT_TEMPLATE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "OrientdTests", "Fixtures",
                               "polkitd_claims.py")
POLICY = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={folder}/system_bus_socket</listen>
  <auth>EXTERNAL</auth>
  <servicedir>{folder}/services</servicedir>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_type="method_call"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
"""


class Testbed:
    """Fixtures/testbed.py with one emulated accelerometer, upright, a polled light sensor and a polled proximity
    sensor."""

    def __init__(self):
        self.process = subprocess.Popen(
            [PYTHON, os.path.join(FIXTURES, "testbed.py")], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, env=dict(os.environ, LD_PRELOAD="libumockdev-preload.so.0"))
        self.root = json.loads(self.process.stdout.readline())["root"]
        self.send({"add": "iio:device0", "subsystem": "iio", "properties": {},
                   "attributes": {"name": "accel_3d\n", "in_accel_x_raw": "0\n", "in_accel_y_raw": "-256\n",
                                  "in_accel_z_raw": "0\n", "in_accel_scale": "0.038307\n"}})
        self.send({"add": "iio:device1", "subsystem": "iio", "properties": {"IIO_SENSOR_PROXY_TYPE": "iio-poll-als"},
                   "attributes": {"name": "als\n", "in_illuminance_raw": "100\n", "in_illuminance_scale": "0.5\n"}})
        self.send({"add": "iio:device2", "subsystem": "iio",
                   "properties": {"IIO_SENSOR_PROXY_TYPE": "iio-poll-proximity"},
                   "attributes": {"name": "prox\n", "in_proximity_raw": "20\n", "in_proximity_nearlevel": "100\n"}})

    def send(self, command):
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        if "error" in answer:
            raise RuntimeError(f"testbed.py: {answer}")
        return answer

    def close(self):
        self.process.kill()
        self.process.wait()


def listening(path):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(path)
            return True
        except OSError:
            return False


def wait_for(condition, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


def answer(process, seconds):
    """The next line `process` prints within `seconds` (without its newline), or None."""
    ready, _, _ = select.select([process.stdout], [], [], seconds)
    return process.stdout.readline().rstrip("\n") if ready else None


def claimed(client, claim):
    """Sends `claim` to bus_client.py until it is answered, for up to 10 s while the daemon has not taken its bus
    name yet (it may listen on its socket first); returns the last answer."""
    deadline = time.monotonic() + 10
    while True:
        client.stdin.write(claim + "\n")
        client.stdin.flush()
        reply = answer(client, 10)
        if reply is None or "ServiceUnknown" not in reply or time.monotonic() > deadline:
            return reply
        time.sleep(0.05)


def backtraces(pid):
    """Every thread's backtrace (gdb), written whole to a file kept after the run; returns that file's path and
    the frames that usually tell a deadlock (locks, cancellation, async iteration)."""
    if shutil.which("gdb") is None:
        return "(no gdb here for the backtraces)"
    result = subprocess.run(["gdb", "-p", str(pid), "-batch", "-ex", "thread apply all bt"],
                            capture_output=True, text=True, timeout=60)
    path = os.path.join(tempfile.gettempdir(), f"orientd-hang-{pid}.txt")
    with open(path, "w") as file:
        file.write(result.stdout)
    telling = [line for line in result.stdout.splitlines()
               if line.startswith("Thread ") or any(word in line for word in (
                   "Merge", "cancel", "Cancel", "StatusRecord", "lock", "Lock", "next", "wait"))]
    return f"(all threads in {path})\n" + "\n".join(telling[:80])


def wait_exit(process, bound):
    """The exit status, or None when the process is still running after `bound` seconds."""
    try:
        return process.wait(timeout=bound)
    except subprocess.TimeoutExpired:
        return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("orientd")
    parser.add_argument("orientctl")
    parser.add_argument("--cycles", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--min-cycles", type=int, default=0)
    parser.add_argument("--bound", type=float, default=3)
    parser.add_argument("--load", type=int, default=0)
    parser.add_argument("--seed", type=int, default=None)
    arguments = parser.parse_args()
    seed = arguments.seed if arguments.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    print(f"stop stress: seed {seed}", flush=True)

    folder = tempfile.mkdtemp(prefix="orientd-stress-")
    with open(os.path.join(folder, "bus.conf"), "w") as file:
        file.write(POLICY.format(folder=folder))
    # polkit, which orientd asks at every claim: python-dbusmock's, allowing the claims, activated when first asked.
    os.mkdir(os.path.join(folder, "services"))
    with open(os.path.join(folder, "services", "org.freedesktop.PolicyKit1.service"), "w") as file:
        file.write(f"[D-BUS Service]\nName=org.freedesktop.PolicyKit1\nExec=/usr/bin/env "
                   f"DBUS_SYSTEM_BUS_ADDRESS=unix:path={folder}/system_bus_socket /usr/bin/python3 -m dbusmock "
                   f"--system --template {POLKIT_TEMPLATE}\n")
    bus = subprocess.Popen(["dbus-daemon", "--nofork", "--config-file", os.path.join(folder, "bus.conf")])
    bus_address = f"unix:path={folder}/system_bus_socket"
    wait_for(lambda: os.path.exists(f"{folder}/system_bus_socket"), 5)
    testbed = Testbed()
    load = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(arguments.load)]
    environment = dict(os.environ, LD_PRELOAD="libumockdev-preload.so.0", UMOCKDEV_DIR=testbed.root,
                       DBUS_SYSTEM_BUS_ADDRESS=bus_address)
    sock = os.path.join(folder, "orientd.sock")
    config = os.path.join(folder, "orientd.conf")
    command = [arguments.orientd, "run", "--dbus", "--config", config, "--socket", sock,
               "--state-directory", os.path.join(folder, "state"), "--natural-orientation", "portrait"]

    passed = failed = 0
    started = time.monotonic()
    try:
        while passed + failed < arguments.cycles and time.monotonic() - started < arguments.seconds:
            cycle = passed + failed + 1
            # A reload has something to apply: the mask alternates.
            with open(config, "w") as file:
                file.write("mask = all\n" if cycle % 2 else "mask = portrait|landscape\n")
            log = open(os.path.join(folder, "daemon.log"), "w")
            daemon = subprocess.Popen(command, env=environment, stdout=log, stderr=subprocess.STDOUT)
            problem = None
            helpers = []
            try:
                if not wait_for(lambda: listening(sock) or daemon.poll() is not None, 15):
                    problem = "never listened"
                elif daemon.poll() is not None:
                    problem = f"exited with {daemon.returncode} at start"
                if problem is None and rng.random() < 0.6:
                    claimant = subprocess.Popen([PYTHON, os.path.join(FIXTURES, "bus_client.py")],
                                                env=environment, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                                text=True)
                    helpers.append(claimant)
                    claims = ["claim"] + (["claim-light"] if rng.random() < 0.7 else []) \
                        + (["claim-proximity"] if rng.random() < 0.7 else [])
                    ready = answer(claimant, 10)
                    if ready is None or not ready.startswith("ready"):
                        problem = f"the D-Bus client did not connect: {ready}"
                    for claim in claims if problem is None else []:
                        reply = claimed(claimant, claim)
                        if reply != "ok":
                            problem = f"{claim} was answered {reply!r}"
                            break
                if problem is None and rng.random() < 0.6:
                    asked = ["--light"] if rng.random() < 0.5 else []
                    monitor = subprocess.Popen([arguments.orientctl, "--socket", sock, "monitor"] + asked,
                                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
                    helpers.append(monitor)
                    # Its first line is the state when the subscription starts: subscribed.
                    if answer(monitor, 10) is None:
                        problem = f"orientctl monitor {' '.join(asked)} printed nothing in 10 s"

                if problem is None and cycle % 5 == 0:
                    second = subprocess.Popen(command, env=environment, stdout=subprocess.PIPE,
                                              stderr=subprocess.STDOUT, text=True)
                    status = wait_exit(second, arguments.bound)
                    if status is None:
                        problem = "a second daemon on the live socket did not exit:\n" + backtraces(second.pid)
                        second.kill()
                    elif status != 70:
                        problem = f"a second daemon on the live socket exited with {status}, not 70"
                    second.wait()
                if problem is None:
                    time.sleep(rng.uniform(0, 0.8))
                    if rng.random() < 0.5:
                        daemon.send_signal(signal.SIGHUP)
                        time.sleep(rng.uniform(0, 0.3))
                    daemon.send_signal(signal.SIGTERM)
                    status = wait_exit(daemon, arguments.bound)
                    if status is None:
                        problem = f"did not stop within {arguments.bound} s of SIGTERM:\n" + backtraces(daemon.pid)
                    elif status != 0:
                        problem = f"stopped with status {status}, not 0"
            finally:
                if daemon.poll() is None:
                    daemon.kill()
                daemon.wait()
                for helper in helpers:
                    helper.kill()
                    helper.wait()
                log.close()
            if problem is None:
                passed += 1
            else:
                failed += 1
                with open(os.path.join(folder, "daemon.log")) as file:
                    print(f"cycle {cycle}: {problem}\n--- daemon log ---\n{file.read()[-4000:]}", flush=True)
    finally:
        for process in load:
            process.kill()
        testbed.close()
        bus.kill()
        bus.wait()
        shutil.rmtree(folder, ignore_errors=True)
    print(f"{time.monotonic() - started:.0f} s, load {arguments.load}, bound {arguments.bound} s")
    if passed + failed < arguments.min_cycles:
        print(f"only {passed + failed} cycles ran in {arguments.seconds:.0f} s, fewer than the "
              f"{arguments.min_cycles} asked for at the least")
        failed += 1
    print(f"stop cycles: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
