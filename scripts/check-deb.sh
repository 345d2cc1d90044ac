#!/usr/bin/env bash
# Checks orientd's Debian package as a user gets it: lintian; `apt-get install` on this machine; the binaries, the
# user, the units and the D-Bus files in place; the installed daemon, socket-activated as its unit starts it and
# run as its user, replaying the demo trace and read by the installed orientctl; then purge, after which nothing
# of the package may be left but its system user. Usage: scripts/check-deb.sh DEB (`make check-deb` builds the
# package and calls it; CI runs that after `make test`). Needs root, as apt-get does.
#
# The package conflicts with iio-sensor-proxy, whose client monitor-sensor the D-Bus tests use: installing it
# removes that package, so this puts it back, and orientd's package out, however the check ends. Between the
# install and the purge there are only checks that take seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
deb=$(realpath "$1")
version=$(dpkg-deb -f "$deb" Version)
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8

fail() { echo "check-deb: $*" >&2; exit 1; }
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"; }
# Installed, or removed with its configuration left: anything but purged or never seen.
known() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -qv "not-installed"; }
apt_get() { apt-get -y -qq -o DPkg::Lock::Timeout=600 -o Dpkg::Use-Pty=0 "$@"; }

# Errors and warnings fail the check (there are none; docs/package.md has the info-level tags).
lintian --fail-on error,warning "$deb"

# The purge would take these with it: an installed package, or what `make install` put in the package's places.
if known orientd; then fail "orientd's package is installed; this check purges it at the end: purge it first"; fi
for path in /etc/orientd /var/lib/orientd; do
    [ ! -e "$path" ] || fail "$path exists (make install?); the package's purge would remove it"
done

had_proxy=no
if installed iio-sensor-proxy; then
    had_proxy=yes
    proxy_mark=$(apt-mark showauto iio-sensor-proxy | grep -qx iio-sensor-proxy && echo auto || echo manual)
    # Into apt's cache now, so that putting it back takes seconds and no network.
    apt_get install --download-only --reinstall --no-install-recommends iio-sensor-proxy
fi
# The processes this starts, while they run.
bus= daemon=
restore() {
    local status=$?
    trap - EXIT
    for pid in $bus $daemon; do kill "$pid" 2>/dev/null || true; done
    if known orientd; then apt_get purge orientd || status=1; fi
    if [ "$had_proxy" = yes ] && ! installed iio-sensor-proxy; then
        apt_get install --no-install-recommends iio-sensor-proxy && apt-mark -qq "$proxy_mark" iio-sensor-proxy ||
            status=1
        # As scripts/install-deps.sh leaves it: its daemon never runs beside orientd's tests.
        if [ -d /run/systemd/system ]; then systemctl disable --now iio-sensor-proxy.service || true; fi
    fi
    [ -z "${run:-}" ] || rm -rf "$run"
    exit "$status"
}
trap restore EXIT

# Without Recommends (acl), so that the purge leaves the machine's packages as they were.
apt_get install --no-install-recommends "$deb"
if installed iio-sensor-proxy; then fail "iio-sensor-proxy is still installed beside orientd (Conflicts)"; fi

[ "$(command -v orientd)" = /usr/bin/orientd ] || fail "orientd is not /usr/bin/orientd"
[ "$(orientd --version)" = "$version" ] || fail "orientd --version says $(orientd --version), the package $version"
orientctl --help | grep -q "^USAGE: orientctl" || fail "orientctl --help prints no usage"
getent passwd orientd >/dev/null && getent group orientd >/dev/null || fail "no orientd user and group"
# Where systemd, udev and dbus-daemon look, whatever the prefix.
for file in /usr/lib/systemd/system/orientd.service /usr/lib/systemd/system/orientd.socket \
    /usr/lib/systemd/user/orientd-follow.service /usr/lib/udev/rules.d/80-orientd.rules /usr/lib/sysusers.d/orientd.conf /usr/share/dbus-1/system.d/orientd.conf \
    /usr/share/dbus-1/system-services/net.hadess.SensorProxy.service; do
    [ -f "$file" ] || fail "$file is missing"
done
dpkg-query -W -f='${Conffiles}' orientd | grep -q " /etc/orientd/orientd.conf " ||
    fail "/etc/orientd/orientd.conf is not a conffile"
# Enabled at install, even with no systemd running (deb-systemd-helper).
[ -L /etc/systemd/system/sockets.target.wants/orientd.socket ] || fail "orientd.socket is not enabled"
grep -q "^ExecStart=/usr/bin/orientd run$" /usr/lib/systemd/system/orientd.service ||
    fail "orientd.service does not start /usr/bin/orientd"
systemd-analyze verify /usr/lib/systemd/system/orientd.service /usr/lib/systemd/system/orientd.socket
man -w orientd orientctl >/dev/null || fail "no manual pages"

run=$(mktemp -d)
chmod 0755 "$run"

# The postinst's `systemd-sysusers orientd.conf`, in an empty root holding the installed file: the user existed
# here before (scripts/install-deps.sh makes it for the tests), so its creation is seen there.
mkdir -p "$run/root/etc" "$run/root/usr/lib/sysusers.d"
cp /usr/lib/sysusers.d/orientd.conf "$run/root/usr/lib/sysusers.d/"
systemd-sysusers --root="$run/root" orientd.conf >/dev/null 2>&1
grep -q "^orientd:x:[0-9]*:[0-9]*:" "$run/root/etc/passwd" || fail "systemd-sysusers orientd.conf makes no user"

# A bus of its own that reads the system bus's directories, as dbus-daemon reads them at boot: it starts only if
# every policy file there parses, and it lists net.hadess.SensorProxy as activatable from orientd's file. It
# prints its address once it listens.
cat > "$run/bus.conf" <<BUS
<busconfig>
  <type>system</type>
  <listen>unix:path=$run/bus.sock</listen>
  <auth>EXTERNAL</auth>
  <standard_system_servicedirs/>
  <includedir>/usr/share/dbus-1/system.d</includedir>
  <policy context="default"><allow send_destination="*"/><allow receive_sender="*"/></policy>
</busconfig>
BUS
exec {bus_output}< <(exec dbus-daemon --config-file="$run/bus.conf" --nofork --nopidfile --print-address 2>&1)
bus=$!
read -r -t 60 address <&"$bus_output" && [[ $address == unix:* ]] || fail "dbus-daemon does not start: $address"
dbus-send --bus="$address" --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.ListActivatableNames | grep -q '"net.hadess.SensorProxy"' ||
    fail "the system bus's directories do not make net.hadess.SensorProxy activatable"
kill "$bus"
wait "$bus" || true
bus=

# The installed daemon as orientd.socket starts it: systemd-socket-activate listens, says so, and starts the
# daemon (as user orientd, in the state directory the unit's StateDirectory= makes) at the first connection,
# which orientctl's request is; the daemon accepts it once it is up. Its output goes to a log.
install -m 0644 Traces/demo.trace "$run/"
install -d -o orientd -g orientd /var/lib/orientd
exec {daemon_output}< <(exec systemd-socket-activate -l "$run/orientd.sock" \
    setpriv --reuid=orientd --regid=orientd --clear-groups \
    /usr/bin/orientd run --replay "$run/demo.trace" --config /dev/null --state-dir /var/lib/orientd 2>&1)
daemon=$!
read -r -t 60 listening <&"$daemon_output" || fail "systemd-socket-activate did not start"
[[ $listening == "Listening on $run/orientd.sock"* ]] || fail "systemd-socket-activate: $listening"
cat <&"$daemon_output" > "$run/daemon.log" &
log_writer=$!
state=$(orientctl --socket "$run/orientd.sock" get --json) || { cat "$run/daemon.log" >&2; fail "orientctl get failed"; }
grep -q '"interface":"[a-z-]*"' <<<"$state" || fail "orientctl get: no interface orientation in $state"
status=$(orientctl --socket "$run/orientd.sock" status --json)
grep -q "\"version\":\"$version\"" <<<"$status" || fail "orientctl status: not version $version in $status"
echo "check-deb: the installed orientd replays the demo trace; orientctl get: $state"
kill -TERM "$daemon"
wait "$daemon" || { cat "$run/daemon.log" >&2; fail "orientd did not stop cleanly on SIGTERM"; }
wait "$log_writer"
daemon=

# Purge: every file the package had is gone, its directories and state with them, and its user stays.
files=$(dpkg-query -L orientd | while read -r path; do [ -d "$path" ] || echo "$path"; done)
apt_get purge orientd
if known orientd; then fail "dpkg still knows orientd after the purge"; fi
for path in $files /etc/orientd /var/lib/orientd /usr/share/doc/orientd \
    /etc/systemd/system/sockets.target.wants/orientd.socket; do
    [ ! -e "$path" ] && [ ! -L "$path" ] || fail "$path is left after purge"
done
getent passwd orientd >/dev/null || fail "the purge removed the orientd user"
echo "check-deb: orientd $version installs, runs and purges cleanly; lintian passes"
