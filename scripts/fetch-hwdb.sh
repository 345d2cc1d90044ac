#!/usr/bin/env bash
# Puts a copy of systemd's hwdb/60-sensor.hwdb at $1 for the mount-matrix tests: the system's own copy when udev
# is installed, else the file from Debian's udev package, extracted without installing it.
set -euo pipefail
dest=$(realpath -m "$1")
mkdir -p "$(dirname "$dest")"
for candidate in /usr/lib/udev/hwdb.d/60-sensor.hwdb /lib/udev/hwdb.d/60-sensor.hwdb; do
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
found=$(find extracted -name 60-sensor.hwdb | head -n 1)
[ -n "$found" ] || { echo "60-sensor.hwdb not found in the udev package" >&2; exit 1; }
cp "$found" "$dest"
