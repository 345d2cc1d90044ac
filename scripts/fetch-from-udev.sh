#!/usr/bin/env bash
# Puts a file of systemd's udev at DEST for the tests: the system's own copy when udev is installed, else the file
# from Debian's udev package, extracted without installing it.
#   hwdb.d/60-sensor.hwdb  systemd's sensor quirks, for the mount-matrix tests
#   systemd-hwdb           its compiler, for the calibrate tests, which compile the hwdb file orientd calibrate writes
#                          in a root of their own (it needs only libc, libselinux and libpcre2)
# Usage: scripts/fetch-from-udev.sh NAME DEST
set -euo pipefail
name=$1
dest=$(realpath -m "$2")
mkdir -p "$(dirname "$dest")"
for candidate in "/usr/lib/udev/$name" "/lib/udev/$name" "/usr/bin/$name" "/bin/$name"; do
    if [ -f "$candidate" ]; then
        cp "$candidate" "$dest"
        exit 0
    fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
apt-get download udev >/dev/null 2>&1 || { apt-get update -qq && apt-get download udev >/dev/null 2>&1; }
dpkg -x udev_*.deb extracted
found=$(find extracted -type f -name "$(basename "$name")" | head -n 1)
[ -n "$found" ] || { echo "$name not found in the udev package" >&2; exit 1; }
cp "$found" "$dest"
