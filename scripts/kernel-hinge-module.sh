#!/usr/bin/env bash
# Builds Intel's hinge sensor driver, hid-sensor-custom-intel-hinge.ko, for the kernel the real-kernel tests boot
# (scripts/test-kernel.sh; Tests/Kernel/test_hinge.py loads it in the guest). Debian 12's kernel is built without it
# (CONFIG_HID_SENSOR_CUSTOM_INTEL_HINGE is not set), though its hid-sensor-custom already knows the sensor and makes
# the platform device the driver binds to. So the driver is built out of tree from Debian's own source of that
# kernel, and nothing of it is kept in this repository:
#   1. the source package of the same version as the kernel's (linux-source-6.1, 139 MB) is downloaded with
#      `apt-get download` into a temporary folder, and only the driver's file and the private header it includes
#      are taken out of it (the .deb is deleted);
#   2. they are built against the kernel's headers (linux-headers-RELEASE, which scripts/kernel-deps.sh installs)
#      with `make -C /usr/src/linux-headers-RELEASE M=... modules`.
# The module is unsigned: Debian's kernel loads it without secure boot, tainted.
#
# Idempotent, cached by kernel release and package version in .build/kernel-hinge/RELEASE/: the module, and
# `built-from` naming the packages it came from. A build that cannot be done (no headers, the archive has no source
# of that version, the versions differ) exits 1, saying why on standard error and in why-not in that folder, which
# the test reads to say why it skips. Prints the module's path when done.
#
# Usage: scripts/kernel-hinge-module.sh [RELEASE]   (6.1.0-57-amd64; by default the kernel test-kernel.sh boots:
# KERNEL, else the newest /boot/vmlinuz-*-amd64)
set -euo pipefail
cd "$(dirname "$0")/.."

driver=drivers/iio/position/hid-sensor-custom-intel-hinge.c
# What the driver includes by a relative path, which no headers package carries.
private_header=drivers/iio/common/hid-sensors/hid-sensor-trigger.h
module=hid-sensor-custom-intel-hinge.ko

if [ $# -gt 0 ]; then
    release=$1
else
    kernel=${KERNEL:-$( (ls /boot/vmlinuz-*-amd64 2>/dev/null || true) | sort -V | tail -n 1)}
    release=${kernel#/boot/vmlinuz-}
fi
[ -n "$release" ] || { echo "kernel-hinge-module: no kernel in /boot (scripts/kernel-deps.sh installs Debian's)" >&2; exit 1; }
folder=.build/kernel-hinge/$release
mkdir -p "$folder"
rm -f "$folder/why-not"

fail() {
    echo "kernel-hinge-module: $*" >&2
    echo "$*" > "$folder/why-not"
    exit 1
}

command -v dpkg-query >/dev/null && command -v apt-get >/dev/null ||
    fail "the hinge driver is built from Debian's kernel source, with apt-get and dpkg: this is not Debian"
# The kernel's package and its version: the source and the headers must be of exactly this one.
image=$(dpkg-query -S "/boot/vmlinuz-$release" 2>/dev/null | cut -d: -f1) ||
    fail "no Debian package holds /boot/vmlinuz-$release"
version=$(dpkg-query -W -f='${Version}' "$image")
headers=linux-headers-$release
headers_version=$(dpkg-query -W -f='${Version}' "$headers" 2>/dev/null || true)
[ -d "/usr/src/$headers" ] && [ -n "$headers_version" ] ||
    fail "$headers is not installed (scripts/kernel-deps.sh installs it; the archive may no longer have it for $release)"
[ "$headers_version" = "$version" ] ||
    fail "$headers is $headers_version, but the kernel ($image) is $version"
# linux-source-6.1 for 6.1.0-57-amd64.
source_package=linux-source-$(echo "$release" | cut -d. -f1,2)
built_from="$source_package $version ($driver), $headers $headers_version"

if [ -f "$folder/$module" ] && [ "$(cat "$folder/built-from" 2>/dev/null)" = "$built_from" ]; then
    echo "$folder/$module"
    exit 0
fi
rm -f "$folder/$module" "$folder/built-from"

work=$(mktemp -d "$folder/download.XXXXXX")
trap 'rm -rf "$work"' EXIT
if ! (cd "$work" && apt-get download -q "$source_package=$version" > download.log 2>&1); then
    available=$(apt-cache policy "$source_package" 2>/dev/null | sed -n 's/^ *Candidate: //p')
    fail "Debian's archive has no $source_package $version, the kernel's version (its candidate: ${available:-none};" \
        "apt-get update, or install the newest linux-image-amd64)"
fi
deb=$(ls "$work"/*.deb)
deb_version=$(dpkg-deb -f "$deb" Version)
[ "$deb_version" = "$version" ] || fail "$source_package is $deb_version, but the kernel is $version"

# The .deb holds one tarball, /usr/src/linux-source-6.1.tar.xz; tar stops reading once it has the two files
# (--occurrence), which ends the pipe early: its status is judged by the files it leaves.
tree=$folder/source
rm -rf "$tree"
mkdir -p "$tree"
top=$source_package
set +o pipefail
dpkg-deb --fsys-tarfile "$deb" 2>/dev/null | tar -xO "./usr/src/$source_package.tar.xz" 2>/dev/null | xz -dc 2>/dev/null |
    tar -x -C "$tree" --strip-components=1 --occurrence=1 "$top/$driver" "$top/$private_header" 2>/dev/null
set -o pipefail
[ -f "$tree/$driver" ] && [ -f "$tree/$private_header" ] ||
    fail "$source_package $version has no $driver and $private_header"
rm -f "$deb"

# Built where the source tree would have it, so that its relative #include finds the header.
echo "obj-m += ${module%.ko}.o" > "$tree/drivers/iio/position/Kbuild"
make -s -C "/usr/src/$headers" M="$PWD/$tree/drivers/iio/position" modules > "$work/build.log" 2>&1 ||
    { cat "$work/build.log" >&2; fail "the driver did not build against $headers (its output is above)"; }
built=$tree/drivers/iio/position/$module
vermagic=$(/sbin/modinfo -F vermagic "$built" | cut -d' ' -f1)
[ "$vermagic" = "$release" ] || fail "the module was built for $vermagic, not $release"
cp "$built" "$folder/$module"
echo "$built_from" > "$folder/built-from"
echo "$folder/$module"
