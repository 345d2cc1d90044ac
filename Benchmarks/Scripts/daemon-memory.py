#!/usr/bin/python3
"""Resident memory of a running orientd, idle and with N subscribers.

Usage: daemon-memory.py ORIENTD TRACE [--subscribers N] [--seconds S] [--speed X] [--cold]

Starts `ORIENTD run` on TRACE (looped, at X times its speed, 5 unless given, sensor always open) with its socket
in a temporary folder, reads /proc/PID/status with no client, then connects N subscribers that keep reading for
S seconds and reads it again (--smaps: each file's and kind's share, read from smaps). As root it also gives the steady-state referenced set: the pages the daemon touched
while serving, read from smaps' Referenced after clearing the bits (/proc/PID/clear_refs) once the clients are in
and the first second has passed. It also prints PSS. --cold drops the page cache first (root only), so the binary's pages are read from
disk as at boot. Prints VmRSS, RssAnon and RssFile in MB, the mappings that hold the most resident memory, and
the daemon's CPU over the S seconds (user + system ticks from /proc/PID/stat).
"""
import argparse
import os
import selectors
import socket
import subprocess
import tempfile
import time

from process_figures import cpu_seconds


def status(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "RssAnon", "RssFile"):
                fields[key] = int(value.split()[0]) / 1024
    return fields


def smaps_total(pid, field):
    """A field of /proc/PID/smaps_rollup (Pss, Referenced, ...) in MB."""
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


def clear_referenced(pid):
    """Clears the referenced bits of every page (root only); False when not allowed."""
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as f:
            f.write("1\n")
        return True
    except OSError:
        return False


def mappings(pid, top=6):
    """Resident kB of each mapped file (anonymous mappings as "[anonymous]"), the `top` largest first (None: all)."""
    totals, name = {}, ""
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            parts = line.split()
            if "-" in parts[0] and len(parts) >= 5:
                name = parts[5] if len(parts) > 5 else "[anonymous]"
            elif parts[0] == "Rss:":
                totals[name] = totals.get(name, 0) + int(parts[1])
    return sorted(totals.items(), key=lambda item: -item[1])[:top]


def smaps_table(pid):
    """Rss, Pss, Anonymous and Referenced (KB) of each file and kind of memory: what each megabyte is."""
    rows, key = {}, None
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            parts = line.split()
            if "-" in parts[0] and len(parts) >= 5:
                name = parts[5] if len(parts) > 5 else "[anonymous]"
                kind = "code" if "x" in parts[1] else "data" if "w" in parts[1] else "read-only"
                key = (os.path.basename(name), kind)
                rows.setdefault(key, {"Rss": 0, "Pss": 0, "Anonymous": 0, "Referenced": 0})
            elif parts[0].rstrip(":") in ("Rss", "Pss", "Anonymous", "Referenced"):
                rows[key][parts[0].rstrip(":")] += int(parts[1])
    return sorted(rows.items(), key=lambda item: -item[1]["Rss"])


def print_smaps_table(pid):
    print(f"    {'Rss':>7} {'Pss':>7} {'Anon':>7} {'Ref':>7}  KB, by file and kind (Ref: referenced while serving)")
    for (name, kind), v in smaps_table(pid):
        if v["Rss"] >= 4:
            print(f"    {v['Rss']:7d} {v['Pss']:7d} {v['Anonymous']:7d} {v['Referenced']:7d}  {name} ({kind})")


def report(label, pid):
    s = status(pid)
    print(f"{label}: VmRSS {s['VmRSS']:.1f} MB, RssAnon {s['RssAnon']:.1f} MB, RssFile {s['RssFile']:.1f} MB, "
          f"PSS {smaps_total(pid, 'Pss'):.1f} MB")
    for name, kb in mappings(pid):
        print(f"    {kb / 1024:6.1f} MB  {name}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("orientd")
    parser.add_argument("trace")
    parser.add_argument("--subscribers", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--speed", type=float, default=5)
    parser.add_argument("--cold", action="store_true")
    parser.add_argument("--smaps", action="store_true", help="print every mapping's Rss, Pss, Anonymous, Referenced")
    args = parser.parse_args()

    if args.cold:
        os.sync()
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("3\n")

    folder = tempfile.mkdtemp(prefix="orientd-memory-")
    sock = os.path.join(folder, "orientd.sock")
    daemon = subprocess.Popen(
        [args.orientd, "run", "--replay", args.trace, "--loop", "--speed", f"{args.speed:g}", "--sampling", "always",
         "--socket", sock, "--state-directory", os.path.join(folder, "state"), "--config", "/dev/null"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while not os.path.exists(sock):
            if time.monotonic() > deadline:
                raise SystemExit("orientd did not create its socket")
            time.sleep(0.05)
        time.sleep(3)
        report("sensor running, no client", daemon.pid)

        selector = selectors.DefaultSelector()
        clients = []
        for _ in range(args.subscribers):
            client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            client.connect(sock)
            client.sendall(b'{"op":"subscribe"}\n')
            client.setblocking(False)
            selector.register(client, selectors.EVENT_READ)
            clients.append(client)
        lines = 0
        started, cpu_before = time.monotonic(), cpu_seconds(daemon.pid)
        end = started + args.seconds
        cleared = None
        while time.monotonic() < end:
            for key, _ in selector.select(timeout=0.2):
                lines += key.fileobj.recv(65536).count(b"\n")
            if cleared is None and time.monotonic() > started + 1:
                cleared = clear_referenced(daemon.pid)
        cpu = (cpu_seconds(daemon.pid) - cpu_before) / (time.monotonic() - started) * 100
        report(f"{args.subscribers} subscribers, after {args.seconds:g} s ({lines} lines received)", daemon.pid)
        print(f"CPU over those {args.seconds:g} s: {cpu:.2f} %")
        if cleared:
            print(f"referenced while serving (the last {args.seconds - 1:g} s): {smaps_total(daemon.pid, 'Referenced'):.1f} MB")
        if args.smaps:
            print_smaps_table(daemon.pid)
        for client in clients:
            client.close()
    finally:
        daemon.terminate()
        daemon.wait()


if __name__ == "__main__":
    main()
