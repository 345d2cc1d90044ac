#!/usr/bin/env bash
# Installs the Debian packages orientd needs to build and test, and checks for the Swift toolchain.
# Idempotent: apt is only called when a package is missing.
set -euo pipefail

# systemd: systemd-analyze (unit checks) and systemd-socket-activate (socket activation test).
# util-linux: setpriv (the permission tests run a client, and the daemon, as other users).
# libiio and libudev: the live sensor; umockdev: emulated sensors for the integration tests.
# libsystemd: sd-bus for the net.hadess.SensorProxy facade. dbus-daemon: the private bus its tests run on.
# iio-sensor-proxy: only for its client monitor-sensor in the facade's tests; its daemon is never run.
# locales: the facade's tests check that fr_FR.UTF-8 changes nothing.
# strace: the state file's tests see its fsyncs, and slow them down, through it.
# groff-base: scripts/check-docs.sh renders the generated manual pages.
# sway: orientctl follow's tests run it headless (swaymsg checks its outputs).
# libglib2.0-bin: gdbus, whose monitor the D-Bus tests read signals with.
# python3-dbusmock: its polkitd answers orientd's polkit checks on the tests' buses.
packages=(ca-certificates dpkg-dev systemd util-linux pkg-config libiio-dev libudev-dev libsystemd-dev umockdev
    gir1.2-umockdev-1.0 python3-gi dbus-daemon iio-sensor-proxy locales strace groff-base sway libglib2.0-bin
    python3-dbusmock)
# Named on the command line: what one target needs besides (make deb: debhelper; make check-deb: lintian).
packages+=("$@")

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
if ((${#missing[@]})); then
    echo "installing: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The package's service must not run beside orientd's tests (on machines that start services at install).
if command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
    $sudo systemctl disable --now iio-sensor-proxy.service >/dev/null 2>&1 || true
fi

if ! locale -a 2>/dev/null | grep -qi '^fr_FR\.utf-\?8$'; then
    $sudo localedef -i fr_FR -f UTF-8 fr_FR.UTF-8
fi

# The service's user and group, as `make install` creates them: the tests run the daemon as that user against
# emulated sensors with the modes the udev rule sets, and on a bus with the shipped D-Bus policy.
if ! getent passwd orientd >/dev/null; then
    $sudo systemd-sysusers - < "$(dirname "$0")/../Systemd/orientd.sysusers"
fi

if ! command -v swift >/dev/null; then
    echo "swift not found: install a Swift 6.1 or later toolchain and put it on PATH" >&2
    exit 1
fi
