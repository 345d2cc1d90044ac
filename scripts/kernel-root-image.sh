#!/usr/bin/env bash
# The root disk of the real-kernel tier's sleeping guest (Tests/Kernel/test_resume.py): an ext4 image holding this
# machine's own installed Debian packages that the guest runs (below, with everything they depend on), so that a
# guest put to sleep keeps its root. The other guest's root is this machine's files over virtio 9p, and the 9p
# driver has no suspend callbacks: after a resume its queues are reset under it and every file read hangs. A
# virtio-blk disk has them. The kernel's modules and virtme-ng's own tools still come over 9p; the guest loads what
# it needs before it sleeps.
#
# The image is built once per set of installed package versions (and per version of this script), into a temporary
# file that is renamed into place, and kept in .build/kernel-root: a second run with nothing changed takes no time.
# Usage: scripts/kernel-root-image.sh   (prints the image's path)
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "kernel-root-image: $*" >&2; exit 1; }
command -v mke2fs >/dev/null || fail "mke2fs is missing (e2fsprogs; scripts/kernel-deps.sh installs it)"

# What guest_main.sh and the tests run (scripts/kernel-deps.sh says why each is there), and orientd's own libraries.
packages=(base-files base-passwd bash dash coreutils diffutils debianutils findutils grep gzip hostname mount sed
    make binutils kmod procps systemd udev dbus-daemon python3 python3-dbusmock acl libinput-tools i2c-tools
    iio-sensor-proxy util-linux libiio0 libudev1 libsystemd0)

# Everything those depend on, as installed here: apt-cache lists every alternative, dpkg-query keeps what is installed.
closure=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
    --no-enhances "${packages[@]}" | grep -v '^ ' | grep -v '^<' | sort -u)
# shellcheck disable=SC2086
installed=$( { dpkg-query -W -f='${db:Status-Abbrev}${Package}:${Architecture}=${Version}\n' $closure 2>/dev/null ||
    true; } | sed -n 's/^ii *//p' | sort -u)
missing=$(for package in "${packages[@]}"; do
    grep -q "^$package:" <<< "$installed" || echo "$package"
done)
[ -z "$missing" ] || fail "not installed here: $(echo $missing) (scripts/kernel-deps.sh installs them)"

folder=.build/kernel-root
image=$folder/root.ext4
# The users and groups it copies too: a user made here since (a new service's) makes a new image.
key=$( { cat "$0"; echo "$installed"; cat /etc/passwd /etc/group; } | sha256sum | cut -d' ' -f1)
if [ -f "$image" ] && [ "$(cat "$folder/key" 2>/dev/null)" = "$key" ]; then
    echo "$image"
    exit 0
fi

mkdir -p "$folder"
staging=$(mktemp -d "$folder/staging.XXXXXX")
list=$staging.files
trap 'rm -rf "$staging" "$list" "$image.new"' EXIT
# Debian 12's merged /usr: the top-level folders are links, made first so that the packages' files land behind them.
mkdir -p "$staging"/{etc,usr/bin,usr/sbin,usr/lib,usr/lib64,proc,sys,dev,run,tmp,root,home,opt,srv/orientd,var/tmp,mnt}
for link in bin sbin lib lib64; do ln -s "usr/$link" "$staging/$link"; done
touch "$staging/etc/fstab"

# The packages' files and links (not their folders, which tar makes as it needs them), then what their maintainer
# scripts made here rather than shipped: the users and groups, the alternatives and the commands that name them,
# the linker's cache, udev's hwdb.
for package in $installed; do dpkg-query -L "${package%%=*}"; done | sort -u |
    while read -r path; do
        case $path in /bin | /sbin | /lib | /lib64) continue ;; esac
        if [ -L "$path" ] || { [ -e "$path" ] && [ ! -d "$path" ]; }; then echo "${path#/}"; fi
    done > "$list"
for path in etc/passwd etc/group etc/shadow etc/gshadow etc/ld.so.cache etc/machine-id \
    usr/lib/udev/hwdb.bin etc/udev/hwdb.bin; do
    if [ -e "/$path" ]; then echo "$path"; fi
done >> "$list"
find /usr/bin /usr/sbin -lname '/etc/alternatives/*' | cut -c2- >> "$list"
tar -C / --no-recursion -cf - -T "$list" | tar -C "$staging" --keep-directory-symlink -xf -
tar -C / -cf - etc/alternatives | tar -C "$staging" --keep-directory-symlink -xf -

# Room for what it holds and a quarter more; the guest writes to overlays in memory, never to the image.
size=$(( $(du -sm "$staging" | cut -f1) * 5 / 4 + 64 ))
mke2fs -q -F -t ext4 -L orientd-guest -d "$staging" "$image.new" "${size}M" > /dev/null
mv "$image.new" "$image"
echo "$key" > "$folder/key"
echo "$image"
