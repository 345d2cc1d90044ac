#!/usr/bin/env bash
# What `make test` needs besides what the build needs: the Debian packages its suites and checks use, the service's
# system users `orientd` and `orientd-switch`, and the fr_FR.UTF-8 locale. Runs scripts/build-deps.sh first, which installs what is
# missing of both package lists with apt-get, so the tests need Debian (they also take systemd's hwdb from
# Debian's udev package). Idempotent: each step is taken only when its result is missing.
#
# It starts, stops, enables and disables no service: the tests run orientd, and iio-sensor-proxy's daemon beside
# it, on private buses of their own, and the machine's own services are left as they are.
set -euo pipefail
here=$(dirname "$0")

# systemd: systemd-analyze (unit checks) and systemd-socket-activate (socket activation test).
# util-linux: setpriv (the permission tests run a client, and the daemon, as other users).
# umockdev, gir1.2-umockdev-1.0 and python3-gi: emulated sensors for the integration tests, driven through
# Tests/OrientdTests/Fixtures/testbed.py.
# dbus-daemon: the private bus the facade's tests run on.
# iio-sensor-proxy: its client monitor-sensor in the facade's tests, and its daemon in the side-by-side tests, each
# on a private bus of the test's own.
# locales: the facade's tests check that fr_FR.UTF-8 changes nothing.
# strace: the state file's tests see its fsyncs, and slow them down, through it.
# groff-base: scripts/check-docs.sh renders the generated manual pages.
# dpkg-dev: dpkg-parsechangelog, with which scripts/check-docs.sh reads the changelog scripts/build-deb.sh writes.
# sway: orientctl follow's tests run it headless (swaymsg checks its outputs).
# libglib2.0-bin: gdbus, whose monitor the D-Bus tests read signals with.
# python3-dbusmock: its polkitd answers orientd's polkit checks on the tests' buses.
packages=(systemd util-linux umockdev gir1.2-umockdev-1.0 python3-gi dbus-daemon iio-sensor-proxy locales strace
    groff-base dpkg-dev sway libglib2.0-bin python3-dbusmock)

if ! command -v apt-get >/dev/null || ! command -v dpkg-query >/dev/null; then
    echo "test-deps: make test needs Debian's apt-get and dpkg-query (the packages: ${packages[*]})" >&2
    exit 1
fi
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
# orientd's package conflicts with iio-sensor-proxy: installing that one would remove orientd, the service in use.
if installed orientd && ! installed iio-sensor-proxy; then
    echo "test-deps: orientd's package is installed, and the tests need iio-sensor-proxy, which would replace it:" \
        "run make test on another machine, or remove orientd first (apt-get remove orientd)" >&2
    exit 1
fi

"$here/build-deps.sh" "${packages[@]}" "$@"

sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo

if ! locale -a 2>/dev/null | grep -qi '^fr_FR\.utf-\?8$'; then
    echo "test-deps: making the fr_FR.UTF-8 locale"
    $sudo localedef -i fr_FR -f UTF-8 fr_FR.UTF-8
fi

# The services' users and groups, as `make install` creates them: the tests run the daemon as orientd against
# emulated sensors with the modes the udev rule sets, and on a bus with the shipped D-Bus policy; the kernel tier's
# disk guest, whose /etc/passwd is this machine's (scripts/kernel-root-image.sh), runs the switch's keeper as
# orientd-switch.
if ! getent passwd orientd >/dev/null || ! getent passwd orientd-switch >/dev/null; then
    echo "test-deps: making the system users orientd and orientd-switch (Systemd/orientd.sysusers)"
    $sudo systemd-sysusers - < "$here/../Systemd/orientd.sysusers"
fi
