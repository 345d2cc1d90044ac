#!/bin/sh
# Runs inside the virtme-ng guest that scripts/test-kernel.sh boots on Debian's kernel, as root, with the host's
# files read-only but /etc, /usr and /var as throw-away overlays. It sets the guest up as a machine with orientd
# installed, then runs the real-kernel tests (Tests/Kernel/test_*.py, Python's unittest) and exits with their status.
#   1. orientd installed as `make install PREFIX=/usr` installs it, from the host's release build (the units, the
#      udev rule, the D-Bus policy and activation file, the configuration; the system user orientd created);
#   2. the modules the emulated hardware needs, and systemd-udevd with the host's rules and orientd's;
#   3. the system bus with orientd's policy, python-dbusmock's polkitd on it (it allows every sensor claim).
# Usage (inside the guest): Tests/Kernel/guest_main.sh [TEST...]   TEST: a module, class or method name, as
# unittest takes it (test_uinput, test_uinput.TabletModeSwitchTests); none runs them all.
set -eu
cd "$(dirname "$0")/../.."
repo=$PWD
log=/run/orientd-tests
mkdir -p "$log"

echo "guest: $(uname -r), $(nproc) CPU"
# The kernel's messages stay in its log (printed at the end of a failed run), not interleaved with the tests'.
dmesg -n 1
make --no-print-directory install PREFIX=/usr INSTALL_RECORD="$log/install-record" > "$log/install.log" 2>&1 ||
    { cat "$log/install.log"; echo "guest: make install failed" >&2; exit 1; }

for module in uhid uinput i2c-dev; do modprobe "$module"; done
/lib/systemd/systemd-udevd --daemon --resolve-names=never
udevadm trigger --action=add
udevadm settle

mkdir -p /run/dbus
dbus-daemon --system --fork
python3 -m dbusmock --system --template polkitd > "$log/polkitd.log" 2>&1 &

cd "$repo/Tests/Kernel"
status=0
python3 -m unittest -v "$@" 2>&1 || status=$?
if [ "$status" != 0 ]; then
    echo "--- the kernel's last messages ---"
    dmesg | tail -n 40
fi
exit "$status"
