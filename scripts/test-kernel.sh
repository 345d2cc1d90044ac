#!/usr/bin/env bash
# The real-kernel tests (`make test-kernel`): boots Debian's own kernel with virtme-ng on this machine's files and
# runs Tests/Kernel/guest_main.sh in it, which installs orientd in the guest and runs the tests against the kernel's
# own drivers (HID sensor hubs through /dev/uhid, I2C parts through i2c-stub, uinput). test_resume, which puts the
# guest to sleep, runs in a second guest whose root is a disk (below). Exits with the first failing guest's status.
#
# The guest sees this machine's files read-only, with /etc, /usr and /var as overlays whose writes are thrown away at
# the end, so nothing it installs or changes stays. It needs the kernel (KERNEL, else the newest
# /boot/vmlinuz-*-amd64), virtme-ng's vng, qemu and busybox (scripts/kernel-deps.sh installs them), and the release
# build with its manuals (`make`), which it installs; test_hinge also the kernel's headers, for Intel's hinge driver
# (scripts/kernel-hinge-module.sh). KVM is tried first when /dev/kvm opens, for a boot that does nothing, and left for
# qemu's emulation (TCG) when that fails or hangs; ORIENTD_KERNEL_KVM=no skips the try. A machine where no guest boots
# fails here, saying so: it never passes silently.
#
# Usage: scripts/test-kernel.sh [TEST...]   (TEST as unittest names it: test_uinput, test_uinput.TabletModeSwitchTests)
# ORIENTD_KERNEL_LOG_LEVEL=debug gives the daemon's debug lines in a failed test's log; ORIENTD_KERNEL_STILL=S
# sets the side-by-side test's still window (60 s).
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "test-kernel: $*" >&2; exit 1; }

kernel=${KERNEL:-$( (ls /boot/vmlinuz-*-amd64 2>/dev/null || true) | sort -V | tail -n 1)}
[ -n "$kernel" ] && [ -f "$kernel" ] || fail "no kernel in /boot (scripts/kernel-deps.sh installs Debian's)"
release=${kernel#/boot/vmlinuz-}
[ -d "/lib/modules/$release" ] || fail "$kernel has no modules in /lib/modules/$release"
command -v vng >/dev/null || fail "virtme-ng's vng is not on PATH (scripts/kernel-deps.sh installs it)"
command -v qemu-system-x86_64 >/dev/null || fail "qemu-system-x86_64 is missing (scripts/kernel-deps.sh)"
[ -x .build/release/orientd ] && [ -f .build/docs/man/orientd.1 ] || fail "no release build: run make first"

# What both guests are; the first has this machine's files as its root.
machine=(-r "$kernel" --memory 1G --cpus 2)
vng_options=("${machine[@]}" --force-9p --overlay-rwdir /etc --overlay-rwdir /usr --overlay-rwdir /var)
kvm=--disable-kvm
if [ "${ORIENTD_KERNEL_KVM:-yes}" != no ] && [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
    if timeout 60 vng "${vng_options[@]}" --exec true > /dev/null 2>&1; then kvm=; fi
fi
if [ -n "$kvm" ]; then how="qemu's emulation (TCG)"; else how=KVM; fi
echo "test-kernel: $kernel under $how"

# test_resume puts the guest to sleep, which a root on virtio 9p does not survive (its driver has no suspend
# callbacks): it runs in a second guest whose root is a disk image of this machine's own packages
# (scripts/kernel-root-image.sh), with this folder read-only at /srv/orientd.
on_9p=() on_disk=()
if [ $# = 0 ]; then
    for file in Tests/Kernel/test_*.py; do
        module=$(basename "$file" .py)
        if [ "$module" = test_resume ]; then on_disk+=("$module"); else on_9p+=("$module"); fi
    done
else
    for name in "$@"; do
        case $name in test_resume | test_resume.*) on_disk+=("$name") ;; *) on_9p+=("$name") ;; esac
    done
fi

# Intel's hinge driver, which Debian's kernel is built without, for test_hinge: built here from Debian's source of
# this kernel (scripts/kernel-hinge-module.sh: 8 s the first time here, then cached), and loaded by the test. Where
# it cannot be built the test is skipped, saying why; in CI that fails the run instead.
hinge_required=
for name in "${on_9p[@]}"; do
    case $name in test_hinge | test_hinge.*) hinge_required=yes ;; esac
done
if [ -n "$hinge_required" ]; then
    if ! scripts/kernel-hinge-module.sh "$release" > /dev/null; then
        [ -z "${CI:-}" ] || fail "Intel's hinge driver could not be built for $release (above); CI needs test_hinge"
        echo "test-kernel: test_hinge will be skipped: $(cat ".build/kernel-hinge/$release/why-not" 2>/dev/null)"
    fi
fi

# The guest's environment is vng's own: what the tests read of this one is passed on the command line.
guest_environment="ORIENTD_KERNEL_LOG_LEVEL=${ORIENTD_KERNEL_LOG_LEVEL:-info}"
# The side-by-side test's still window (test_side_by_side.py), shorter for a quick look.
[ -z "${ORIENTD_KERNEL_STILL:-}" ] || guest_environment+=" ORIENTD_KERNEL_STILL=$ORIENTD_KERNEL_STILL"
# In CI the hinge driver must load in the guest too: test_hinge fails where it would be skipped.
[ -z "${CI:-}" ] || guest_environment+=" ORIENTD_KERNEL_HINGE=required"

# Runs one guest to its end: vng's options, then the tests; says how it ended, and fails on a guest that never ran.
run_guest() {
    local what=$1 started status=0
    shift
    started=$(date +%s)
    # Through a pipe, standard error merged: qemu opens the guest's output as /proc/self/fd/1 and 2 anew, truncating
    # a file they point to, which would lose the first guest's output when this script's goes to a file.
    timeout "${ORIENTD_KERNEL_TIMEOUT:-1200}" vng "$@" 2>&1 | cat || status=${PIPESTATUS[0]}
    echo "test-kernel: the guest on $what ended with status $status after $(( $(date +%s) - started )) s"
    [ "$status" != 124 ] || fail "the guest on $what did not end within ${ORIENTD_KERNEL_TIMEOUT:-1200} s"
    [ "$status" != 255 ] || fail "no guest booted on $what (vng exited 255; run it by hand with --verbose to see why)"
    return "$status"
}

status=0
if [ ${#on_9p[@]} -gt 0 ]; then
    run_guest "this machine's files" "${vng_options[@]}" $kvm \
        --exec "env $guest_environment Tests/Kernel/guest_main.sh ${on_9p[*]}" || status=$?
fi
if [ ${#on_disk[@]} -gt 0 ]; then
    image=$(scripts/kernel-root-image.sh)
    run_guest "a root disk" "${machine[@]}" --root-disk "$image" --root-fstype ext4 $kvm \
        --rodir="/srv/orientd=$PWD" \
        --exec "cp /srv/orientd/Tests/Kernel/guest_main.sh /run/ && env PATH=/usr/sbin:/usr/bin ORIENTD_REPO=/srv/orientd \
            $guest_environment /run/guest_main.sh ${on_disk[*]}" ||
        { guest_status=$?; [ "$status" != 0 ] || status=$guest_status; }
fi
exit "$status"
