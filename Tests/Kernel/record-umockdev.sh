#!/bin/sh
# Records, with umockdev-record, the sysfs of sensors as the kernel's own drivers make them: the HID hub's four
# (hid_hub.py) and a KXCJK-1013 on i2c-stub (i2c_sensors.py), each IIO device with its parents and its trigger, one
# file per device named after the driver's name. The umockdev tests replay them
# (Tests/OrientdTests/KernelRecordedDeviceTests.swift, Fixtures/kernel-6.1), so that the emulated tier reads what the
# kernel shows rather than what a hand wrote.
#
# Usage, on the host (after scripts/kernel-deps.sh): Tests/Kernel/record-umockdev.sh OUTPUT_FOLDER
# It boots the kernel test-kernel.sh boots, with OUTPUT_FOLDER writable in the guest, and runs itself there with
# --guest. Values read while recording are the hub's (upright, 0 lux) and reading a HID attribute is a GET_REPORT, so
# the files hold what a just-powered sensor reads.
set -eu
cd "$(dirname "$0")/../.."

if [ "${1:-}" != --guest ]; then
    [ $# = 1 ] || { echo "usage: $0 OUTPUT_FOLDER" >&2; exit 64; }
    mkdir -p "$1"
    output=$(cd "$1" && pwd)
    kernel=${KERNEL:-$( (ls /boot/vmlinuz-*-amd64 2>/dev/null || true) | sort -V | tail -n 1)}
    [ -n "$kernel" ] || { echo "record-umockdev: no kernel in /boot (scripts/kernel-deps.sh)" >&2; exit 1; }
    exec vng -r "$kernel" --disable-kvm --force-9p --memory 1G --cpus 2 --overlay-rwdir /etc --overlay-rwdir /usr \
        --overlay-rwdir /var --rwdir "$output" --exec "$PWD/Tests/Kernel/record-umockdev.sh --guest $output"
fi

output=$2
Tests/Kernel/guest_main.sh --setup > /run/record-setup.log 2>&1 || { cat /run/record-setup.log; exit 1; }
mkfifo /run/hub-in /run/parts-in
python3 Tests/Kernel/hid_hub.py --sensors accel,als,prox,compass < /run/hub-in > /run/hub.out 2> /run/hub.err &
exec 3> /run/hub-in
python3 Tests/Kernel/i2c_sensors.py < /run/parts-in > /run/parts.out 2> /run/parts.err &
exec 4> /run/parts-in
echo '{"set": "accel", "values": [0, -9.81, 0]}' >&3
echo '{"devices": true}' >&3
echo '{"add": "kxcjk1013", "accel": [0, -9.81, 0]}' >&4
# Three lines from the hub (ready, set, devices: once every IIO device is made), two from the parts (ready, add).
for _ in $(seq 60); do
    [ "$(grep -c . /run/hub.out)" -ge 3 ] && [ "$(grep -c . /run/parts.out)" -ge 2 ] && break
    sleep 1
done
udevadm settle
for device in /sys/bus/iio/devices/iio:device*; do
    name=$(cat "$device/name")
    wanted=$(cat "$device/trigger/current_trigger" 2>/dev/null || true)
    trigger=
    for candidate in /sys/bus/iio/devices/trigger*; do
        [ -n "$wanted" ] && [ "$(cat "$candidate/name")" = "$wanted" ] && trigger=$candidate
    done
    umockdev-record "$device" $trigger > "$output/$name.umockdev"
    echo "record-umockdev: $name ($device${trigger:+, $trigger}) -> $output/$name.umockdev"
done
