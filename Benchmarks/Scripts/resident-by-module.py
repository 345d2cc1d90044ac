#!/usr/bin/python3
"""Which modules' code and data are resident in a running process's mapping of its own binary.

Usage: resident-by-module.py PID BINARY [--top N]

Reads /proc/PID/maps for BINARY's mappings and /proc/PID/pagemap (root) for the pages present, then shares
each present 4 KB page among the symbols it holds (nm on the unstripped BINARY), by the bytes each covers, and
sums by module: the Swift module a mangled name names, or a family of C names (swift_ runtime, iio_, ...).
"""
import argparse
import bisect
import re
import struct
import subprocess
from collections import defaultdict

PAGE = 4096
SWIFT = re.compile(r"^_?\$s(\d+)([A-Za-z_][A-Za-z0-9_]*)")


def module_of(name):
    m = SWIFT.match(name)
    if m:
        length = int(m.group(1))
        return m.group(2)[:length]
    if name.startswith(("$sS", "_$sS", "$ss", "$sy")):
        return "Swift (stdlib)"
    if name.startswith(("swift_", "_swift_", "swift::", "_ZN5swift", "_ZNK5swift")):
        return "Swift runtime (C++)"
    if name.startswith("_Z"):
        return "C++ (runtime's)"
    return "C and other: " + (name.split("_")[0] or name[:8])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pid", type=int)
    parser.add_argument("binary")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()

    symbols = []
    out = subprocess.run(["nm", "-n", "--defined-only", "-S", args.binary], capture_output=True, text=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4:
            addr, size, _, name = parts
            symbols.append((int(addr, 16), int(size, 16), name))
    symbols.sort()
    starts = [s[0] for s in symbols]

    # PIE: the load base is where offset 0 is mapped (its first segment's vaddr is 0).
    maps = []
    with open(f"/proc/{args.pid}/maps") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 6 and parts[5] == __import__("os").path.realpath(args.binary):
                lo, hi = (int(x, 16) for x in parts[0].split("-"))
                maps.append((lo, hi, int(parts[2], 16), parts[1]))
    base = min(lo - off for lo, hi, off, _ in maps)

    by_module = defaultdict(float)
    by_perm = defaultdict(int)
    unattributed = 0
    with open(f"/proc/{args.pid}/pagemap", "rb") as pagemap:
        for lo, hi, off, perm in maps:
            for page in range(lo, hi, PAGE):
                pagemap.seek(page // PAGE * 8)
                entry = struct.unpack("<Q", pagemap.read(8))[0]
                if not entry >> 63 & 1:
                    continue
                by_perm[perm] += PAGE
                vlo, vhi = page - base, page - base + PAGE
                i = max(0, bisect.bisect_right(starts, vlo) - 1)
                covered = defaultdict(int)
                while i < len(symbols) and symbols[i][0] < vhi:
                    s, size, name = symbols[i]
                    a, b = max(s, vlo), min(s + max(size, 1), vhi)
                    if b > a:
                        covered[module_of(name)] += b - a
                    i += 1
                total = sum(covered.values())
                if total == 0:
                    unattributed += PAGE
                    continue
                for module, n in covered.items():
                    by_module[module] += PAGE * n / total
    print("resident by permission:", {p: f"{n / 1048576:.2f} MB" for p, n in by_perm.items()})
    print(f"pages holding no sized symbol: {unattributed / 1048576:.2f} MB")
    for module, n in sorted(by_module.items(), key=lambda x: -x[1])[: args.top]:
        print(f"{n / 1048576:7.2f} MB  {module}")


if __name__ == "__main__":
    main()
