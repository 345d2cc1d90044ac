#!/usr/bin/python3
"""The release link order: the functions orientd runs while it serves, so that lld packs them together.

Usage:
  order-file.py generate ORIENTD ORIENTCTL OUTPUT   (as `make order-file` runs it)
  order-file.py check ORDER ORIENTD                 (how many ordered names the binary still has)

`generate` runs ORIENTD (a release build, compiled with function sections) under valgrind's callgrind twice,
and each time zeroes the counters once the daemon is serving, so that start-up is not counted:
  1. on the demo trace at 5x speed: 20 subscribers, get, status, lock, unlock, mask, a reload (SIGHUP);
  2. on an emulated polled accelerometer and ambient light sensor (umockdev), with the D-Bus facade on a private
     bus: iio-sensor-proxy's client monitor-sensor claims both while the accelerometer is turned and the light
     changes (a claimed light sensor is a GNOME laptop's steady state), and a subscriber follows over the socket.
Every function of ORIENTD with a cost in either run is written to OUTPUT, one mangled name a line, in four parts:
those called at least 100 times (the steady state), then the rest of what serving subscribers ran, then the rest of
the live run, then the rest of what the requests and the reload ran. Each part is sorted by name, so that a
regenerated file differs only where the code did. lld moves each name's section: a function of its own with
function sections, the whole `.text` of an object built without them (most of the Swift standard library's code
is one 1.6 MB section); those are packed too, since serving touches them anyway (measured in BENCHMARKS.md).

`check` exits 1 when fewer than 80 % of the names are still in ORIENTD: the file has gone stale (`make order-file`).
"""
import os
import re
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import time

# Called this often in the two runs, a function is part of the steady state (every sample, every event).
STEADY_CALLS = 100
ONE_G_RAW = 256


def wait_for(path, seconds=120):
    deadline = time.monotonic() + seconds
    while not os.path.exists(path):
        if time.monotonic() > deadline:
            raise SystemExit(f"order-file: the daemon under valgrind did not create {path}")
        time.sleep(0.1)


def callgrind(binary, arguments, output, environment=None):
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={output}", "--dump-instr=no", "--demangle=no",
               binary] + arguments
    return subprocess.Popen(command, env=environment, stdout=subprocess.DEVNULL, stderr=open(output + ".log", "w"))


def stop(process, grace=60):
    """SIGTERM, then SIGKILL if the process (slow under valgrind) has not ended within `grace` seconds."""
    process.terminate()
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        print(f"order-file: {process.args[0]} did not stop within {grace} s of SIGTERM; killed", file=sys.stderr)
        process.kill()
        process.wait()


def control(pid, what):
    subprocess.run(["callgrind_control", what, str(pid)], check=True, stdout=subprocess.DEVNULL)


def subscribe(path, count):
    selector = selectors.DefaultSelector()
    clients = []
    for _ in range(count):
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        client.connect(path)
        client.sendall(b'{"op":"subscribe"}\n')
        client.setblocking(False)
        selector.register(client, selectors.EVENT_READ)
        clients.append(client)
    return selector, clients


def drain(selector, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for key, _ in selector.select(timeout=0.2):
            key.fileobj.recv(65536)


def replay_run(binary, orientctl, folder):
    sock = os.path.join(folder, "replay.sock")
    output = os.path.join(folder, "replay.out")
    daemon = callgrind(binary, ["run", "--replay", "Traces/demo.trace", "--loop", "--speed", "5", "--sampling",
                                "always", "--socket", sock, "--state-directory", os.path.join(folder, "state"),
                                "--config", "/dev/null"], output)
    try:
        wait_for(sock)
        time.sleep(3)
        control(daemon.pid, "-z")
        selector, clients = subscribe(sock, 20)
        drain(selector, 10)
        # The first dump holds serving subscribers; the second the requests and the reload.
        control(daemon.pid, "-d")
        for request in (["get"], ["status"], ["lock"], ["unlock"], ["mask", "all-but-upside-down"], ["mask", "default"],
                        ["get", "--mask", "portrait"]):
            subprocess.run([orientctl] + request + ["--socket", sock], stdout=subprocess.DEVNULL, timeout=60)
        daemon.send_signal(signal.SIGHUP)
        drain(selector, 4)
        control(daemon.pid, "-d")
        for client in clients:
            client.close()
    finally:
        stop(daemon)
    return output + ".1", output + ".2"


def live_run(binary, folder):
    import gi
    gi.require_version("UMockdev", "1.0")
    from gi.repository import UMockdev

    testbed = UMockdev.Testbed.new()
    attributes = {"name": "accel_3d", "in_accel_x_raw": "0", "in_accel_y_raw": str(-ONE_G_RAW),
                  "in_accel_z_raw": "0", "in_accel_scale": "0.0383072"}
    device = testbed.add_device("iio", "iio:device0", None,
                                [item for pair in attributes.items() for item in (pair[0], pair[1] + "\n")],
                                ["ACCEL_LOCATION", "display"])
    light = testbed.add_device("iio", "iio:device1", None, ["name", "als\n", "in_illuminance_input", "300\n"],
                               ["IIO_SENSOR_PROXY_TYPE", "iio-poll-als"])
    bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"], stdout=subprocess.PIPE,
                           text=True)
    address = bus.stdout.readline().strip()
    # orientd asks polkit at every claim (monitor-sensor's below).
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Benchmarks", "Scripts"))
    import polkit
    polkit_mock = polkit.start(address)
    environment = dict(os.environ, LD_PRELOAD="libumockdev-preload.so.0", UMOCKDEV_DIR=testbed.get_root_dir(),
                       DBUS_SYSTEM_BUS_ADDRESS=address)
    sock = os.path.join(folder, "live.sock")
    output = os.path.join(folder, "live.out")
    daemon = callgrind(binary, ["run", "--dbus", "--config", "/dev/null", "--socket", sock, "--state-directory",
                                os.path.join(folder, "live-state")], output, environment)
    monitor = None
    try:
        wait_for(sock)
        time.sleep(3)
        control(daemon.pid, "-z")
        monitor = subprocess.Popen(["monitor-sensor", "--accel", "--light"], stdout=subprocess.DEVNULL,
                                   env=dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=address))
        selector, clients = subscribe(sock, 1)
        turns = ((ONE_G_RAW, 0), (0, -ONE_G_RAW), (-ONE_G_RAW, 0), (0, ONE_G_RAW), (0, -ONE_G_RAW))
        # Noise, a shadow, lights off and on again: every path of the light filter.
        levels = ("306", "120", "4", "300", "294")
        for (x, y), level in zip(turns, levels):
            testbed.set_attribute(device, "in_accel_x_raw", f"{x}\n")
            testbed.set_attribute(device, "in_accel_y_raw", f"{y}\n")
            testbed.set_attribute(light, "in_illuminance_input", f"{level}\n")
            drain(selector, 3)
        control(daemon.pid, "-d")
        for client in clients:
            client.close()
    finally:
        for process in (monitor, daemon, polkit_mock, bus):
            if process:
                stop(process)
    return output + ".1"


def functions_run(dump, binary):
    """The functions of `binary` that have an entry in a callgrind dump (callgrind writes only those that ran),
    each with the number of calls made to it."""
    names, objects, current, callee_object, callee, calls = {}, {}, None, None, None, {}
    pattern = re.compile(r"^(c?ob|c?fn)=\((\d+)\)(?: (.*))?$")

    def plain(index):
        # callgrind marks recursion levels and cycles after a quote: `name'2`.
        return names[index].split("'")[0]

    with open(dump, errors="replace") as f:
        for line in f:
            if line.startswith("calls=") and callee is not None:
                calls[callee] = calls.get(callee, 0) + int(line[6:].split()[0])
                continue
            match = pattern.match(line.rstrip("\n"))
            if not match:
                continue
            kind, index, name = match.groups()
            table = objects if kind.endswith("ob") else names
            if name is not None:
                table[index] = name
            if kind == "ob":
                current = callee_object = objects[index]
            elif kind == "cob":
                callee_object = objects[index]
            elif kind == "fn":
                callee_object = current
                if current == binary:
                    calls.setdefault(plain(index), 0)
            elif kind == "cfn":
                # The callee is in the caller's object unless a cob= line named another just before.
                callee = plain(index) if callee_object == binary else None
                callee_object = current
    return calls


def text_symbols(binary):
    """The names of the functions defined in `binary` (nm's t, T and W)."""
    listing = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    return {parts[2] for parts in (line.split() for line in listing.splitlines())
            if len(parts) == 3 and parts[1] in "tTwW"}


def generate(binary, orientctl, output):
    folder = tempfile.mkdtemp(prefix="orientd-order-")
    # valgrind 3.19 cannot read the toolchain's DWARF 5; the symbol table is all it needs.
    stripped = os.path.join(folder, "orientd")
    subprocess.run(["objcopy", "--strip-debug", binary, stripped], check=True)
    subscribers, requests = replay_run(stripped, orientctl, folder)
    # The parts, in the order they are laid out: a daemon that serves only subscribers keeps the first two
    # resident and not the others.
    parts = [functions_run(subscribers, stripped), functions_run(live_run(stripped, folder), stripped),
             functions_run(requests, stripped)]
    run = {}
    for part in parts:
        for name, count in part.items():
            run[name] = run.get(name, 0) + count

    def place(name):
        if run[name] >= STEADY_CALLS:
            return 0  # every sample, every event
        return 1 + next(index for index, part in enumerate(parts) if name in part)

    functions = text_symbols(binary)
    ordered = sorted((name for name in run if name in functions), key=lambda name: (place(name), name))
    with open(output + ".tmp", "w") as f:
        f.write("# orientd's release link order (lld --symbol-ordering-file): the functions it runs while serving.\n")
        f.write("# Generated by `make order-file` (scripts/order-file.py); do not edit.\n")
        f.writelines(name + "\n" for name in ordered)
    os.replace(output + ".tmp", output)
    print(f"order-file: {len(run)} functions ran while serving; {len(ordered)} written to {output}, "
          f"{sum(1 for name in ordered if run[name] >= STEADY_CALLS)} of them called at least {STEADY_CALLS} times")


def check(order, binary):
    wanted = [line.strip() for line in open(order) if line.strip() and not line.startswith("#")]
    symbols = set(subprocess.run(["nm", "--format=just-symbols", binary], capture_output=True, text=True,
                                 check=True).stdout.split())
    present = sum(1 for name in wanted if name in symbols)
    share = present / max(len(wanted), 1)
    print(f"order-file: {present} of {len(wanted)} ordered functions are in {binary} ({share:.0%})")
    if share < 0.8:
        raise SystemExit("order-file: the link order is stale; regenerate it with `make order-file`")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "generate":
        generate(*sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "check":
        check(*sys.argv[2:])
    else:
        raise SystemExit(__doc__)
