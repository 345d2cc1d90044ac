#!/bin/sh
# Runs inside the virtme-ng guest that scripts/test-kernel.sh boots on Debian's kernel, as root, with the host's
# files read-only but /etc, /usr and /var as throw-away overlays. It sets the guest up as a machine with orientd
# installed, then runs the real-kernel tests (Tests/Kernel/test_*.py, Python's unittest) and exits with their status.
#   1. orientd installed as `make install PREFIX=/usr` installs it, from the host's release build (the units, the
#      udev rule, the D-Bus policy and activation file, the configuration; the system user orientd created);
#   2. the modules the emulated hardware needs, and systemd-udevd with the host's rules and orientd's;
#   3. the system bus with orientd's policy, and python-dbusmock's polkitd on it, allowing sensor claims
#      (Tests/OrientdTests/Fixtures/polkitd_claims.py, the unit tests' own).
# Usage (inside the guest): Tests/Kernel/guest_main.sh [--setup | TEST...]   TEST: a module, class or method name,
# as unittest takes it (test_uinput, test_uinput.TabletModeSwitchTests); none runs them all; --setup sets the
# machine up and runs nothing.
set -eu
# ORIENTD_REPO: where the repository is, when this script runs from a copy (the guest that sleeps runs it from memory:
# a shell keeps its script open, and closing a file on 9p after a resume hangs).
cd "${ORIENTD_REPO:-$(dirname "$0")/../..}"
log=/run/orientd-tests
mkdir -p "$log"

echo "guest: $(uname -r), $(nproc) CPU"
# The kernel's messages stay in its log (printed at the end of a failed run), not interleaved with the tests'.
dmesg -n 1
make --no-print-directory install PREFIX=/usr INSTALL_RECORD="$log/install-record" > "$log/install.log" 2>&1 ||
    { cat "$log/install.log"; echo "guest: make install failed" >&2; exit 1; }

# The tests run from a copy in memory: a guest put to sleep (test_resume) keeps its disk but not its 9p mounts, and
# a test that read the repository after a resume (a traceback's source line) would hang there.
copy=/run/orientd-repo
mkdir -p "$copy/Tests/OrientdTests" "$copy/Benchmarks"
cp -r Tests/Kernel "$copy/Tests/"
cp -r Tests/OrientdTests/Fixtures "$copy/Tests/OrientdTests/"
cp -r scripts Traces Systemd "$copy/"
cp -r Benchmarks/Scripts "$copy/Benchmarks/"
# Intel's hinge driver as the host built it for this kernel, or why it did not (scripts/kernel-hinge-module.sh):
# test_hinge loads it.
hinge=".build/kernel-hinge/$(uname -r)"
if [ -d "$hinge" ]; then
    mkdir -p "$copy/$hinge"
    for file in hid-sensor-custom-intel-hinge.ko built-from why-not; do
        [ ! -f "$hinge/$file" ] || cp "$hinge/$file" "$copy/$hinge/"
    done
fi

# On a disk root (the guest that sleeps, for test_resume) the kernel's modules are still on 9p, which hangs after a
# resume, and udev looks every new device up in their index. The index and the drivers the emulated hardware uses
# are copied to memory first.
if [ "$(findmnt -n -o FSTYPE /)" != 9p ] && [ -L "/lib/modules/$(uname -r)" ]; then
    modules=$(readlink -f "/lib/modules/$(uname -r)")
    in_memory=/run/orientd-modules
    for folder in hid iio i2c input; do
        mkdir -p "$in_memory/kernel/drivers/$folder"
        cp -r "$modules/kernel/drivers/$folder/." "$in_memory/kernel/drivers/$folder/"
    done
    cp "$modules"/modules.* "$in_memory/"
    ln -sfn "$in_memory" "/lib/modules/$(uname -r)"
fi
for module in uhid uinput i2c-dev; do modprobe "$module"; done
# What a machine's hwdb says of its proximity sensor (60-sensor.hwdb's PROXIMITY_NEAR_LEVEL): the emulated parts'
# drivers have no near level of their own, and orientd, as iio-sensor-proxy, offers none without one.
mkdir -p /run/udev/rules.d
echo 'SUBSYSTEM=="iio", TEST=="in_proximity_raw", ENV{PROXIMITY_NEAR_LEVEL}="100"' > /run/udev/rules.d/60-orientd-tests.rules
/lib/systemd/systemd-udevd --daemon --resolve-names=never
udevadm trigger --action=add
udevadm settle

mkdir -p /run/dbus
# The polkit of the unit tests' buses, allowing sensor claims, in place of the machine's own polkitd (if it has
# one): its D-Bus activation file goes, so that the bus never starts the real one, and a policy lets root own the
# name, which the machine's policy keeps for user polkitd, and anyone call it.
rm -f /usr/share/dbus-1/system-services/org.freedesktop.PolicyKit1.service
# orientd's package replaces iio-sensor-proxy, and its bus policy goes with it (3.0's gives the compass to user
# geoclue alone); the tests installed it on this machine for its client.
rm -f /usr/share/dbus-1/system.d/net.hadess.SensorProxy.conf /etc/dbus-1/system.d/net.hadess.SensorProxy.conf
mkdir -p /etc/dbus-1/system.d
cat > /etc/dbus-1/system.d/orientd-tests-polkit.conf <<'POLICY'
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <policy user="root"><allow own="org.freedesktop.PolicyKit1"/></policy>
  <policy context="default"><allow send_destination="org.freedesktop.PolicyKit1"/></policy>
</busconfig>
POLICY
dbus-daemon --system --fork
python3 -m dbusmock --system --template "$copy/Tests/OrientdTests/Fixtures/polkitd_claims.py" > "$log/polkitd.log" 2>&1 &
for _ in $(seq 100); do
    busctl --system status org.freedesktop.PolicyKit1 > /dev/null 2>&1 && break
    sleep 0.2
done
busctl --system status org.freedesktop.PolicyKit1 > /dev/null 2>&1 ||
    { cat "$log/polkitd.log"; echo "guest: python-dbusmock's polkitd did not start" >&2; exit 1; }

# --setup: the machine only, for a person in a guest's shell (docs/development/testing.md).
[ "${1:-}" != --setup ] || { echo "guest: set up; the tests are in $copy/Tests/Kernel"; exit 0; }

cd "$copy/Tests/Kernel"
status=0
python3 -m unittest -v "$@" 2>&1 || status=$?
if [ "$status" != 0 ]; then
    echo "--- the kernel's last messages ---"
    dmesg | tail -n 40
fi
exit "$status"
