#!/usr/bin/env bash
# Puts systemd-hwdb at $1 for the calibrate tests, which compile the hwdb file orientd calibrate writes (in a root
# of their own, --root) and look the sensor up in it: the system's own when udev is installed, else the one from
# Debian's udev package, extracted without installing it (it needs only libc, libselinux and libpcre2).
set -euo pipefail
dest=$(realpath -m "$1")
mkdir -p "$(dirname "$dest")"
for candidate in /usr/bin/systemd-hwdb /bin/systemd-hwdb; do
    if [ -x "$candidate" ]; then
        ln -sf "$candidate" "$dest"
        exit 0
    fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
apt-get download udev >/dev/null 2>&1 || { apt-get update -qq && apt-get download udev >/dev/null 2>&1; }
dpkg -x udev_*.deb extracted
found=$(find extracted -type f -name systemd-hwdb | head -n 1)
[ -n "$found" ] || { echo "systemd-hwdb not found in the udev package" >&2; exit 1; }
cp "$found" "$dest"
