#!/usr/bin/env bash
# Checks `make install` and `make uninstall` off Debian, on this Debian machine, with apt and dpkg really absent:
# a folder holds a link to every program of /usr/local/sbin, /usr/local/bin, /usr/sbin, /usr/bin, /sbin and /bin but
# apt, apt-get, apt-cache, apt-mark, dpkg, dpkg-query and dpkg-deb, and PATH is that folder and Swift's folder
# alone. Then:
#   1. Those seven are found nowhere on that PATH.
#   2. `make` (the build `make install` copies) and `make install DESTDIR=... PREFIX=/usr` succeed with it (so
#      neither apt nor dpkg was needed; the deps step said it checked with pkg-config), and the install puts the
#      same files, with the same modes, link targets and contents, as the same command with this machine's PATH,
#      apt and dpkg present.
#   3. The installed README.md, PROTOCOL.md, NEWS.md and docs/*.md's links lead to installed files and headings.
#   4. `make uninstall` with the same variables leaves DESTDIR empty, both ways.
#   5. Over an edited configuration: a second `make install` leaves it and puts orientd.conf.sample beside it;
#      `make uninstall` removes everything but that file (and its folders), and says it kept it.
#   6. The deps step without apt, where pkg-config finds none of the libraries and swift is missing: it exits
#      non-zero naming the packages for dnf and pacman, and where Swift comes from.
# Usage: scripts/check-install.sh (`make check-install`; CI runs it after `make check-deb`, when the release build
# exists, so that each `make install` here takes seconds). Nothing is installed on this machine: every install
# goes to a temporary DESTDIR.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C.UTF-8

fail() { echo "check-install: $*" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

hidden=(apt apt-get apt-cache apt-mark dpkg dpkg-query dpkg-deb)
system_dirs=(/usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin)
swift=$(PATH=$PATH:/opt/swift/usr/bin command -v "${SWIFT:-swift}") || fail "no swift on PATH or in /opt/swift/usr/bin"
swift_dir=$(dirname "$swift")

# The folder of links, the first of each name in PATH order, as a shell would find them.
mkdir "$work/bin"
for dir in "${system_dirs[@]}"; do
    for program in "$dir"/*; do
        name=${program##*/}
        [ -f "$program" ] && [ -x "$program" ] || continue
        [[ " ${hidden[*]} " == *" $name "* ]] && continue
        [ -e "$work/bin/$name" ] || ln -s "$program" "$work/bin/$name"
    done
done
no_apt_path=$work/bin
case " ${system_dirs[*]} " in *" $swift_dir "*) ;; *) no_apt_path=$work/bin:$swift_dir ;; esac

# 1.
for name in "${hidden[@]}"; do
    if found=$(PATH=$no_apt_path command -v "$name"); then fail "$name is still on the PATH without apt: $found"; fi
done
echo "check-install: PATH without apt: $no_apt_path ($(ls "$work/bin" | wc -l) programs; none of ${hidden[*]})"

# make with a PATH: this machine's, or the one without apt.
make_with() {
    local path=$1 log=$2
    shift 2
    if ! env PATH="$path" make --no-print-directory "$@" > "$log" 2>&1; then
        tail -n 30 "$log" >&2
        fail "make $* failed (PATH=$path; the log is above)"
    fi
}
# Every path under a root, with its type and mode, and a file's checksum or a link's target.
manifest() {
    (cd "$1" && find . -mindepth 1 | sort | while IFS= read -r path; do
        if [ -L "$path" ]; then echo "link $path -> $(readlink "$path")"
        elif [ -d "$path" ]; then echo "folder $(stat -c %a "$path") $path"
        else echo "file $(stat -c %a "$path") $path $(sha256sum < "$path" | cut -c1-16)"; fi
    done)
}

# 2.
start=$(date +%s)
make_with "$no_apt_path" "$work/build-without-apt.log" all
grep -q "no apt-get or dpkg-query here: checking with pkg-config" "$work/build-without-apt.log" ||
    fail "the deps step did not take the path without apt: $(grep build-deps "$work/build-without-apt.log" || true)"
make_with "$PATH" "$work/with-apt.log" install DESTDIR="$work/with-apt" PREFIX=/usr
make_with "$no_apt_path" "$work/without-apt.log" install DESTDIR="$work/without-apt" PREFIX=/usr
manifest "$work/with-apt" > "$work/with-apt.list"
manifest "$work/without-apt" > "$work/without-apt.list"
[ -s "$work/with-apt.list" ] || fail "make install put nothing in $work/with-apt"
diff -u "$work/with-apt.list" "$work/without-apt.list" ||
    fail "make install without apt installs other files than with it (the difference is above)"
echo "check-install: make install DESTDIR=... PREFIX=/usr without apt or dpkg: the same $(grep -c '^file' "$work/with-apt.list") files" \
    "and $(grep -c '^link' "$work/with-apt.list") link as with them, same modes and contents ($(($(date +%s) - start)) s)"

# 3.
doc=$work/without-apt/usr/share/doc/orientd
scripts/check-markdown.py --links "$doc/README.md" "$doc/PROTOCOL.md" "$doc/NEWS.md" "$doc"/docs/*.md ||
    fail "the installed documentation's links do not resolve"

# 4.
make_with "$no_apt_path" "$work/uninstall-without-apt.log" uninstall DESTDIR="$work/without-apt" PREFIX=/usr
make_with "$PATH" "$work/uninstall-with-apt.log" uninstall DESTDIR="$work/with-apt" PREFIX=/usr
for root in without-apt with-apt; do
    left=$(cd "$work/$root" && find . -mindepth 1)
    [ -z "$left" ] || fail "make uninstall left in $root: $left"
done
echo "check-install: make uninstall, with apt and without, leaves DESTDIR empty; without apt it said:"
sed 's/^/    /' "$work/uninstall-without-apt.log"

# 5.
edited=$work/edited
make_with "$no_apt_path" "$work/edited-1.log" install DESTDIR="$edited" PREFIX=/usr
echo "mask = landscape" >> "$edited/etc/orientd/orientd.conf"
make_with "$no_apt_path" "$work/edited-2.log" install DESTDIR="$edited" PREFIX=/usr
[ -f "$edited/etc/orientd/orientd.conf.sample" ] || fail "a second make install put no orientd.conf.sample beside the edited file"
grep -qx "mask = landscape" "$edited/etc/orientd/orientd.conf" || fail "a second make install replaced the edited configuration"
make_with "$no_apt_path" "$work/edited-uninstall.log" uninstall DESTDIR="$edited" PREFIX=/usr
left=$(cd "$edited" && find . -mindepth 1 | sort | paste -sd ' ')
[ "$left" = "./etc ./etc/orientd ./etc/orientd/orientd.conf" ] || fail "make uninstall over an edited configuration left: $left"
grep -q "kept $edited/etc/orientd/orientd.conf" "$work/edited-uninstall.log" ||
    fail "make uninstall did not say it kept the edited configuration: $(cat "$work/edited-uninstall.log")"
echo "check-install: over an edited configuration, make uninstall keeps that file alone, and says so"

# 6.
mkdir "$work/no-pc"
status=0
env PATH="$no_apt_path" PKG_CONFIG_LIBDIR="$work/no-pc" SWIFT="$work/no-swift" scripts/build-deps.sh \
    > "$work/missing.log" 2>&1 || status=$?
[ "$status" != 0 ] || fail "build-deps.sh succeeded with no library and no swift"
for expected in "sudo dnf install libiio-devel systemd-devel" "sudo pacman -S --needed libiio systemd-libs" \
    "swift.org/install"; do
    grep -qF "$expected" "$work/missing.log" || fail "build-deps.sh without apt does not say '$expected': $(cat "$work/missing.log")"
done
echo "check-install: without apt, with nothing found, build-deps.sh exits $status and says:"
sed 's/^/    /' "$work/missing.log"
