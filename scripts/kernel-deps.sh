#!/usr/bin/env bash
# What `make test-kernel` needs besides the build: Debian's kernel, booted by virtme-ng under qemu, and the programs
# the guest runs from this machine's files. Runs scripts/build-deps.sh, which installs what is missing of the
# Debian packages with apt-get; virtme-ng comes from PyPI (Debian 12 has no package of it). Idempotent. It starts,
# stops, enables and disables no service, and creates no user: the guest makes its own, in overlays it throws away.
set -euo pipefail
here=$(dirname "$0")

# linux-image-amd64: the kernel the tests boot, with its modules (uhid, uinput, the HID sensor drivers, i2c-stub
# and the I2C sensor drivers), whichever version Debian's bookworm has now; docs/development/testing.md names the
# one last seen.
# qemu-system-x86: what virtme-ng boots it in. busybox-static: virtme-ng's initramfs.
# udev: systemd-udevd in the guest, with its rules and hwdb. dbus-daemon: the guest's system bus.
# python3-dbusmock: polkitd (and logind, for a suspend) on that bus. acl: setfacl, which the tablet-mode switch's
# keeper's unit runs. libinput-tools: libinput, which reads the switch as the desktops do; sway, whose bindswitch acts
# on it. i2c-tools: i2cset for the I2C parts' registers. iio-sensor-proxy: its daemon beside orientd, on the same
# emulated hub. util-linux: rtcwake, setpriv. systemd: busctl. make, binutils (strip), kmod: `make install` and
# modprobe in the guest. procps: ps, for a look around. e2fsprogs: mke2fs, which makes the root disk of the guest that
# sleeps (scripts/kernel-root-image.sh).
packages=(linux-image-amd64 qemu-system-x86 busybox-static udev dbus-daemon python3-dbusmock acl libinput-tools sway
    i2c-tools iio-sensor-proxy util-linux systemd make binutils kmod procps e2fsprogs)

if ! command -v apt-get >/dev/null; then
    echo "kernel-deps: make test-kernel needs Debian (its kernel package, and these: ${packages[*]})" >&2
    exit 1
fi
"$here/build-deps.sh" "${packages[@]}"

# linux-headers-RELEASE for the kernel the tests boot (chosen as scripts/test-kernel.sh chooses it), of its exact
# version: Debian's kernel is built without Intel's hinge driver, which scripts/kernel-hinge-module.sh builds against
# these headers for test_hinge. They bring gcc-12 and the kernel's kbuild (linux-headers-amd64 would not do: on a
# machine whose linux-image-amd64 is older than the archive's, it installs the archive's newer headers). Where the
# archive no longer has them, test_hinge is skipped, saying why (in CI, scripts/test-kernel.sh fails instead).
kernel=${KERNEL:-$( (ls /boot/vmlinuz-*-amd64 2>/dev/null || true) | sort -V | tail -n 1)}
if [ -n "$kernel" ]; then
    "$here/build-deps.sh" "linux-headers-${kernel#/boot/vmlinuz-}" ||
        echo "kernel-deps: could not install linux-headers-${kernel#/boot/vmlinuz-}: test_hinge will be skipped" >&2
fi

# The version the tests were written against; a later one is taken if pip is told to.
if ! command -v vng >/dev/null; then
    echo "kernel-deps: installing virtme-ng from PyPI"
    python3 -m pip install -q "virtme-ng==${VIRTME_NG_VERSION:-1.42}"
fi
command -v vng >/dev/null || { echo "kernel-deps: vng is not on PATH after pip installed virtme-ng" >&2; exit 1; }
