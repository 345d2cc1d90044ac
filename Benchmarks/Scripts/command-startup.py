#!/usr/bin/python3
"""Start-up time of orientd and orientctl, and orientctl's resident memory.

Usage: command-startup.py ORIENTD ORIENTCTL TRACE [--runs N] [--cold]

- orientd: from the exec of `ORIENTD run` on TRACE (looped, socket in a temporary folder) to the first answer to
  a `status` request on its socket (`get` would also wait for the sensor's first samples), started N times.
- orientctl: the wall time of `ORIENTCTL get` and `ORIENTCTL status` against that daemon, N runs each.
- orientctl's memory: VmRSS, RssAnon and PSS of `ORIENTCTL monitor` and `ORIENTCTL watch --exec true` after
  two seconds subscribed.
--cold drops the page cache before each start (root only), so the binary is read from disk as after a boot.
Prints the median and the slowest run of each.
"""
import argparse
import os
import socket
import statistics
import subprocess
import tempfile
import time


def drop_caches():
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")


def start_daemon(orientd, trace, folder):
    """Starts the daemon; returns it and the seconds until it answered a first request."""
    sock = os.path.join(folder, "orientd.sock")
    started = time.monotonic()
    daemon = subprocess.Popen(
        [orientd, "run", "--replay", trace, "--loop", "--socket", sock, "--state-directory", os.path.join(folder, "state"),
         "--config", "/dev/null"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = started + 20
    while time.monotonic() < deadline:
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
                client.connect(sock)
                client.sendall(b'{"op":"status","id":1}\n')
                if client.recv(4096).endswith(b"\n"):
                    return daemon, time.monotonic() - started
        except OSError:
            time.sleep(0.001)
    daemon.kill()
    raise SystemExit("orientd did not answer within 20 s")


def stop(process):
    process.terminate()
    process.wait()


def memory(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "RssAnon"):
                fields[key] = int(value.split()[0]) / 1024
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            if line.startswith("Pss:"):
                fields["Pss"] = int(line.split()[1]) / 1024
    return fields


def summary(label, seconds):
    ms = sorted(s * 1000 for s in seconds)
    print(f"{label}: median {statistics.median(ms):.1f} ms, slowest {ms[-1]:.1f} ms ({len(ms)} runs)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("orientd")
    parser.add_argument("orientctl")
    parser.add_argument("trace")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--cold", action="store_true")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="orientd-startup-")
    sock = os.path.join(folder, "orientd.sock")

    daemon_times = []
    for _ in range(args.runs):
        if args.cold:
            drop_caches()
        daemon, seconds = start_daemon(args.orientd, args.trace, folder)
        daemon_times.append(seconds)
        stop(daemon)
    summary("orientd run, exec to first answer", daemon_times)

    daemon, _ = start_daemon(args.orientd, args.trace, folder)
    try:
        for command in (["get"], ["status"]):
            times = []
            for _ in range(args.runs):
                if args.cold:
                    drop_caches()
                started = time.monotonic()
                subprocess.run([args.orientctl, "--socket", sock] + command, check=True, stdout=subprocess.DEVNULL)
                times.append(time.monotonic() - started)
            summary(f"orientctl {command[0]}", times)
        for command in (["monitor"], ["watch", "--exec", "true"]):
            client = subprocess.Popen([args.orientctl, "--socket", sock] + command, stdout=subprocess.DEVNULL)
            time.sleep(2)
            m = memory(client.pid)
            print(f"orientctl {command[0]}, subscribed 2 s: VmRSS {m['VmRSS']:.1f} MB, RssAnon {m['RssAnon']:.1f} MB, "
                  f"PSS {m['Pss']:.1f} MB")
            stop(client)
    finally:
        stop(daemon)


if __name__ == "__main__":
    main()
