#!/usr/bin/env bash
# Checks that `make run`, the README's first command, leaves a fresh Debian machine's services, users, groups and
# locales as they were and installs no package but those the build needs. It runs the real `make run` (the deps
# step, the release build, incremental, and the daemon on the demo trace) with a folder of recording stand-ins
# first on PATH, and stops it once the daemon says it is listening. The stand-ins play a fresh machine:
#   apt-get, apt      record, and "install" the packages named (nothing is installed)
#   dpkg-query        says every package is not installed, until the apt-get stand-in has installed it
#   pkg-config        says libiio, libudev and libsystemd are missing until the apt-get stand-in has run; runs the
#                     real pkg-config otherwise (SwiftPM asks it too, during the build)
#   locale, getent    `locale -a` lists C, C.utf8 and POSIX only; getent knows no user or group orientd; anything
#                     else goes to the real ones
#   sudo              records, then runs its command
#   systemctl, service, update-rc.d, invoke-rc.d, localedef, locale-gen, update-locale, useradd, groupadd, adduser,
#   addgroup, usermod, systemd-sysusers, dnf, pacman
#                     record, and succeed without doing anything
# and where systemd does not run (here), /run/systemd/system is made to exist in a mount namespace of make run's
# own, as where it does. Then it checks that:
#   - the daemon started (its log says "listening on");
#   - apt-get was asked to install the build packages (pkg-config and the three -dev libraries, which a fresh
#     machine lacks) and nothing outside the build's set (those, git and ca-certificates), so none of the test-only
#     packages;
#   - none of the stand-ins in the last group was called at all;
#   - for real: /etc/passwd, /etc/group, the locales (`locale -a`), the installed packages (dpkg-query) and the
#     links systemctl enable/disable write (/etc/systemd) are as before.
# It prints every recorded call. Calls by absolute path (/usr/bin/systemctl) would pass the stand-ins by; the
# deps scripts call programs by name. Needs root (the mount namespace; CI runs as root); elsewhere it runs without
# /run/systemd/system and says so.
# Usage: scripts/check-make-run.sh (`make check-make-run`; CI runs it after `make check-deb`, when the release
# build exists). CHECK_MAKE_RUN_TIMEOUT: seconds to wait for the daemon (default 1800, for a build from scratch).
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C.UTF-8

fail() { echo "check-make-run: $*" >&2; exit 1; }
# The build's packages: what scripts/build-deps.sh may install on Debian. Written here, not read from it, so that
# a test-only package added there fails this check.
allowed=(pkg-config libiio-dev libudev-dev libsystemd-dev git ca-certificates)
# What a fresh machine lacks and the build cannot do without: the deps step must install these.
required=(pkg-config libiio-dev libudev-dev libsystemd-dev)
# The test-only packages (scripts/test-deps.sh) and the developer targets' (order-file, deb, check-deb), named in
# the failure when asked for.
test_only=(systemd util-linux umockdev gir1.2-umockdev-1.0 python3-gi dbus-daemon iio-sensor-proxy locales strace
    groff-base dpkg-dev sway libglib2.0-bin python3-dbusmock valgrind debhelper lintian)
forbidden=(systemctl service update-rc.d invoke-rc.d localedef locale-gen update-locale useradd groupadd adduser
    addgroup usermod systemd-sysusers dnf pacman)

work=$(mktemp -d)
chmod 0755 "$work"
shims=$work/shims state=$work/state calls=$work/calls.log
mkdir "$shims" "$state"
: > "$calls"
: > "$state/installed"
real_pkg_config=$(command -v pkg-config) || fail "pkg-config is needed here (the stand-in runs it)"
real_locale=$(command -v locale) || fail "locale is needed here"
real_getent=$(command -v getent) || fail "getent is needed here"

make_pid='' stopped_by=''
cleanup() {
    local status=$?
    trap - EXIT
    if [ -n "$make_pid" ]; then stop_make || true; fi
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT

# A stand-in: NAME, then the shell code it runs after recording its call (its arguments are "$@").
stand_in() {
    {
        echo '#!/bin/bash'
        echo "printf '%s\\n' \"$1 \$*\" >> '$calls'"
        printf '%s\n' "$2"
    } > "$shims/$1"
    chmod 0755 "$shims/$1"
}
apt_code="
if [[ \" \$* \" == *' install '* ]]; then
    skip=
    for arg in \"\$@\"; do
        if [ -n \"\$skip\" ]; then skip=; continue; fi
        case \$arg in -o|-c|-t) skip=yes ;; -*|install) ;; *) echo \"\$arg\" >> '$state/installed' ;; esac
    done
    touch '$state/apt-ran'
fi
exit 0"
stand_in apt-get "$apt_code"
stand_in apt "$apt_code"
stand_in dpkg-query "
for arg in \"\$@\"; do package=\$arg; done
if grep -qx -- \"\$package\" '$state/installed'; then printf 'install ok installed'; exit 0; fi
echo \"dpkg-query: no packages found matching \$package\" >&2
exit 1"
stand_in pkg-config "
if [ ! -e '$state/apt-ran' ]; then
    for arg in \"\$@\"; do
        case \$arg in libiio*|libudev*|libsystemd*)
            echo \"Package \$arg was not found in the pkg-config search path.\" >&2; exit 1 ;;
        esac
    done
fi
exec '$real_pkg_config' \"\$@\""
stand_in locale "
if [ \"\$*\" = -a ]; then printf 'C\nC.utf8\nPOSIX\n'; exit 0; fi
exec '$real_locale' \"\$@\""
stand_in getent "
case \"\$1 \$2\" in 'passwd orientd'|'group orientd') exit 2 ;; esac
exec '$real_getent' \"\$@\""
stand_in sudo "
while [[ \${1:-} == -* ]]; do shift; done
exec \"\$@\""
for name in "${forbidden[@]}"; do stand_in "$name" "exit 0"; done

# The machine as it is, to compare with afterwards.
snapshot() {
    sha256sum /etc/passwd /etc/group
    locale -a
    dpkg-query -W -f='${Package} ${Version} ${Status}\n'
    find /etc/systemd -type l -printf '%p -> %l\n' 2>/dev/null | sort
}
snapshot > "$work/before"

# Ends make run and the daemon: SIGINT to its process group, as Ctrl-C would, then SIGTERM, then SIGKILL.
stop_make() {
    local group
    group=$(ps -o pgid= -p "$make_pid" | tr -d ' ') || group=
    if [ -n "$group" ]; then
        local signal
        for signal in INT TERM KILL; do
            kill -"$signal" -- "-$group" 2>/dev/null || break
            stopped_by=$signal
            for _ in $(seq 100); do kill -0 -- "-$group" 2>/dev/null || break 2; sleep 0.1; done
        done
    fi
    wait "$make_pid" 2>/dev/null || true
    make_pid=
}

# make run, in a process group of its own (setsid), with the stand-ins first on PATH.
run_log=$work/make-run.log
systemd_note=
if [ -d /run/systemd/system ]; then
    setsid env PATH="$shims:$PATH" make --no-print-directory run > "$run_log" 2>&1 &
elif [ "$(id -u)" = 0 ]; then
    systemd_note="(in a mount namespace where /run/systemd/system exists)"
    setsid env PATH="$shims:$PATH" unshare --mount --propagation private sh -c '
        if [ -d /run/systemd ]; then mount -t tmpfs tmpfs /run/systemd; else mount -t tmpfs tmpfs /run; fi &&
            mkdir -p /run/systemd/system && exec make --no-print-directory run' > "$run_log" 2>&1 &
else
    systemd_note="(not root: without /run/systemd/system)"
    setsid env PATH="$shims:$PATH" make --no-print-directory run > "$run_log" 2>&1 &
fi
make_pid=$!
start=$(date +%s)
timeout=${CHECK_MAKE_RUN_TIMEOUT:-1800}
until grep -q "listening on" "$run_log"; do
    if ! kill -0 "$make_pid" 2>/dev/null; then
        tail -n 40 "$run_log" >&2
        echo "check-make-run: the calls recorded:" >&2
        sed 's/^/    /' "$calls" >&2
        make_pid=
        fail "make run ended before the daemon listened (its log's end is above)"
    fi
    (($(date +%s) - start < timeout)) || { tail -n 20 "$run_log" >&2; fail "the daemon did not listen within $timeout s"; }
    sleep 1
done
listening_after=$(($(date +%s) - start))
stop_make
snapshot > "$work/after"

echo "check-make-run: make run $systemd_note: the daemon listened after $listening_after s" \
    "($(grep -m 1 "listening on" "$run_log")); SIG$stopped_by stopped it"
echo "check-make-run: the calls recorded ($(wc -l < "$calls")):"
sed 's/^/    /' "$calls"

problems=()
installed=$(sort -u "$state/installed" | paste -sd ' ')
for package in $installed; do
    if [[ " ${test_only[*]} " == *" $package "* ]]; then
        problems+=("apt-get was asked for $package, which only the tests or a developer target need")
    elif [[ " ${allowed[*]} " != *" $package "* ]]; then
        problems+=("apt-get was asked for $package, which is not a build package (${allowed[*]})")
    fi
done
for package in "${required[@]}"; do
    [[ " $installed " == *" $package "* ]] ||
        problems+=("apt-get was not asked for $package, which a fresh machine lacks (dpkg-query said so)")
done
for name in "${forbidden[@]}"; do
    if grep -q "^$name\( \|$\)" "$calls"; then problems+=("$name was called: $(grep "^$name\( \|$\)" "$calls" | paste -sd ';')"); fi
done
if ! diff -u "$work/before" "$work/after" > "$work/changed"; then
    problems+=("the machine changed (users, groups, locales, packages or /etc/systemd's links): $(cat "$work/changed")")
fi
if ((${#problems[@]})); then
    printf 'check-make-run: %s\n' "${problems[@]}" >&2
    exit 1
fi
echo "check-make-run: make run on a fresh machine asked apt-get for $installed only; no service, user, group," \
    "locale or package manager but apt-get was called, and users, groups, locales, packages and /etc/systemd's" \
    "links are as before"
