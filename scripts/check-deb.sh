#!/usr/bin/env bash
# Checks orientd's Debian package as a user gets it: lintian; `apt-get install` on this machine; the binaries, the
# user, the units and the D-Bus files in place; the README's links leading to installed files; the installed
# daemon, socket-activated as its unit starts it and run as its user, replaying the demo trace and read by the
# installed orientctl; then an upgrade to NEXT-DEB (the same build packaged as a later version,
# scripts/build-deb.sh --version-suffix), a downgrade back, a removal and a new install, each keeping the edited
# configuration and the rotation lock; then purge, after which nothing of the package may be left but its system
# user. Usage: scripts/check-deb.sh DEB NEXT-DEB (`make check-deb` builds both and calls it; CI runs that after
# `make test`). Needs root, as apt-get does.
#
# systemd does not run here, and the maintainer scripts act on the units only where it does
# (/run/systemd/system). So each apt-get run that installs, upgrades or removes runs as if it did: in a mount
# namespace of its own where /run/systemd/system exists, policy-rc.d allows services to start, and `systemctl` is
# scripts/systemctl-stand-in.sh, which logs each request and acts the two units out with scripts/unit-stand-in.py
# (the socket held by one process for as long as it is started, the service started from the unit's ExecStart as
# its User at the first connection, and stopped or restarted on request). What that checks is what the maintainer
# scripts ask of systemd and what the daemon does when it is done; how systemd itself carries the requests out is
# not checked (no boot, no real unit), and neither are the udev and D-Bus reloads (no udevd, no system bus).
#
# The package conflicts with iio-sensor-proxy, whose client monitor-sensor the D-Bus tests use: installing it
# removes that package, so this puts it back, and orientd's package out, however the check ends. Between the
# install and the purge there are only checks that take seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# = 2 ] || { echo "usage: scripts/check-deb.sh DEB NEXT-DEB" >&2; exit 64; }
deb=$(realpath "$1")
version=$(dpkg-deb -f "$deb" Version)
next_deb=$(realpath "$2")
next_version=$(dpkg-deb -f "$next_deb" Version)
dpkg --compare-versions "$next_version" gt "$version" || { echo "check-deb: $next_version is not later than $version" >&2; exit 64; }
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8

fail() { echo "check-deb: $*" >&2; exit 1; }
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"; }
# Installed, or removed with its configuration left: anything but purged or never seen.
known() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -qv "not-installed"; }
apt_get() { apt-get -y -qq -o DPkg::Lock::Timeout=600 -o Dpkg::Use-Pty=0 "$@"; }

# Errors and warnings fail the check (there are none; docs/package.md has the info-level tags).
lintian --fail-on error,warning "$deb"
# Without polkitd every D-Bus claim is refused, and libpolkit, which the daemon links, does not bring it.
recommends=$(dpkg-deb -f "$deb" Recommends)
case ", $recommends," in *", polkitd,"*) ;; *) fail "the package does not recommend polkitd (Recommends: $recommends)" ;; esac

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
bus= daemon= prober= monitor=
restore() {
    local status=$?
    trap - EXIT
    for pid in $bus $daemon $prober $monitor; do kill "$pid" 2>/dev/null || true; done
    if [ -n "${run:-}" ] && [ -f "$run/units/stand-in.pid" ]; then
        # As `systemctl stop orientd.socket` would: the service, then the socket.
        kill -TERM "$(cat "$run/units/stand-in.pid")" || true
        for _ in $(seq 100); do [ -f "$run/units/stand-in.pid" ] && sleep 0.1; done
    fi
    if known orientd; then apt_get purge orientd || status=1; fi
    if [ "$had_proxy" = yes ] && ! installed iio-sensor-proxy; then
        # Put back as it was: its service is left to what the package's own install does, as on any machine.
        apt_get install --no-install-recommends iio-sensor-proxy && apt-mark -qq "$proxy_mark" iio-sensor-proxy ||
            status=1
    fi
    [ -z "${run:-}" ] || rm -rf "$run"
    exit "$status"
}
trap restore EXIT

run=$(mktemp -d)
chmod 0755 "$run"
install -m 0644 Traces/demo.trace "$run/"

# apt-get as if systemd ran (the header says how). The service replays the demo trace, without D-Bus (no system
# bus here), and otherwise reads the installed configuration.
mkdir -p "$run/units" "$run/bin"
ln -s "$PWD/scripts/systemctl-stand-in.sh" "$run/bin/systemctl"
printf '#!/bin/sh\nexit 0\n' > "$run/policy-rc.d" && chmod 0755 "$run/policy-rc.d"
export ORIENTD_STAND_IN=$run/units ORIENTD_STAND_IN_SOCKET=$run/units/orientd.sock
export ORIENTD_STAND_IN_ARGS="--replay $run/demo.trace --loop --no-dbus"
sock=$ORIENTD_STAND_IN_SOCKET
# apt sets dpkg's PATH itself (DPkg::Path).
apt_get_with_systemd() {
    unshare --mount --propagation private bash -c '
        mount -t tmpfs tmpfs /run/systemd && mkdir /run/systemd/system &&
            mount --bind "$0/policy-rc.d" /usr/sbin/policy-rc.d && exec "$@"' \
        "$run" apt-get -y -qq -o DPkg::Lock::Timeout=600 -o Dpkg::Use-Pty=0 \
        -o DPkg::Path="$run/bin:/usr/sbin:/usr/bin:/sbin:/bin" "$@"
}
requests() { cat "$run/units/systemctl.log" 2>/dev/null || true; }
service_pid() { cat "$run/units/service.pid" 2>/dev/null || true; }

# Without Recommends (acl), so that the purge leaves the machine's packages as they were.
apt_get_with_systemd install --no-install-recommends "$deb"
if installed iio-sensor-proxy; then fail "iio-sensor-proxy is still installed beside orientd (Conflicts)"; fi

[ "$(command -v orientd)" = /usr/bin/orientd ] || fail "orientd is not /usr/bin/orientd"
[ "$(orientd --version)" = "$version" ] || fail "orientd --version says $(orientd --version), the package $version"
[ "$(readlink /usr/bin/orientctl)" = orientd ] || fail "/usr/bin/orientctl is not a link to orientd"
[ "$(readlink -f /usr/libexec/orientd-tablet-mode-switch)" = /usr/bin/orientd ] ||
    fail "/usr/libexec/orientd-tablet-mode-switch is not a link to orientd"
/usr/libexec/orientd-tablet-mode-switch --help | grep -q "^USAGE: orientd-tablet-mode-switch" ||
    fail "orientd-tablet-mode-switch --help prints no usage"
orientctl --help | grep -q "^USAGE: orientctl" || fail "orientctl --help prints no usage"
getent passwd orientd >/dev/null && getent group orientd >/dev/null || fail "no orientd user and group"
getent passwd orientd-switch >/dev/null || fail "no orientd-switch user (the tablet-mode switch's keeper)"
# Where systemd, udev, dbus-daemon and polkitd look, whatever the prefix.
for file in /usr/lib/systemd/system/orientd.service /usr/lib/systemd/system/orientd.socket \
    /usr/lib/systemd/system/orientd-tablet-mode-switch.service \
    /usr/lib/systemd/user/orientd-follow.service /usr/lib/udev/rules.d/80-orientd.rules /usr/lib/sysusers.d/orientd.conf /usr/share/dbus-1/system.d/orientd.conf \
    /usr/share/dbus-1/system-services/net.hadess.SensorProxy.service /usr/share/polkit-1/actions/net.hadess.SensorProxy.policy; do
    [ -f "$file" ] || fail "$file is missing"
done
dpkg-query -W -f='${Conffiles}' orientd | grep -q " /etc/orientd/orientd.conf " ||
    fail "/etc/orientd/orientd.conf is not a conffile"
# Enabled at install, even with no systemd running (deb-systemd-helper).
[ -L /etc/systemd/system/sockets.target.wants/orientd.socket ] || fail "orientd.socket is not enabled"
[ ! -e /etc/systemd/system/multi-user.target.wants/orientd.service ] || fail "orientd.service is enabled"
# Started at install where systemd runs: the socket alone, listening.
grep -qx "systemctl --quiet --system start orientd.socket" <(requests) || fail "the postinst did not start orientd.socket: $(requests)"
[ -S "$sock" ] && [ -z "$(service_pid)" ] || fail "after the install: not the socket alone listening"
grep -q "^ExecStart=/usr/bin/orientd run$" /usr/lib/systemd/system/orientd.service ||
    fail "orientd.service does not start /usr/bin/orientd"
systemd-analyze verify /usr/lib/systemd/system/orientd.service /usr/lib/systemd/system/orientd.socket \
    /usr/lib/systemd/system/orientd-tablet-mode-switch.service
# The keeper's unit is started by udev where a base accelerometer is, never enabled.
[ -z "$(find /etc/systemd/system -name orientd-tablet-mode-switch.service)" ] || fail "orientd-tablet-mode-switch.service is enabled"
grep -q 'ENV{ACCEL_LOCATION}=="base", ENV{SYSTEMD_WANTS}+="orientd-tablet-mode-switch.service"' \
    /usr/lib/udev/rules.d/80-orientd.rules || fail "the udev rule does not start the keeper with a base accelerometer"
grep -q '^ATTR{name}=="hinge|cros-ec-lid-angle", TAG+="systemd", ENV{SYSTEMD_WANTS}+="orientd.service", \\$' \
    /usr/lib/udev/rules.d/80-orientd.rules || fail "the udev rule does not start orientd with a kernel hinge sensor"
man -w orientd orientctl >/dev/null || fail "no manual pages"
# The README's links, and those of the docs beside it, lead to files installed with them, uncompressed
# (debian/rules' dh_compress -X): docs/*.md, PROTOCOL.md, LICENSE and the others, and the headings they name.
scripts/check-markdown.py --links /usr/share/doc/orientd/README.md /usr/share/doc/orientd/PROTOCOL.md \
    /usr/share/doc/orientd/NEWS.md /usr/share/doc/orientd/docs/*.md || fail "the installed documentation's links do not resolve"

# The postinst's `systemd-sysusers orientd.conf`, in an empty root holding the installed file: the user existed
# here before (scripts/test-deps.sh makes it for the tests), so its creation is seen there.
mkdir -p "$run/root/etc" "$run/root/usr/lib/sysusers.d"
cp /usr/lib/sysusers.d/orientd.conf "$run/root/usr/lib/sysusers.d/"
systemd-sysusers --root="$run/root" orientd.conf >/dev/null 2>&1
grep -q "^orientd:x:[0-9]*:[0-9]*:" "$run/root/etc/passwd" || fail "systemd-sysusers orientd.conf makes no user"

# A bus of its own that reads the system bus's directories, as dbus-daemon reads them at boot: it starts only if
# every policy file there parses, and it lists net.hadess.SensorProxy as activatable from orientd's file. It
# prints its address once it listens. Before it, the one warning allowed is a machine without geoclue's user:
# orientd's compass policy names it, as iio-sensor-proxy's does, and dbus-daemon skips that policy, saying so.
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
address=
while read -r -t 60 line <&"$bus_output"; do
    if [[ $line == unix:* ]]; then address=$line; break; fi
    [[ $line == *'Unknown username "geoclue"'* ]] || fail "dbus-daemon: $line"
done
[ -n "$address" ] || fail "dbus-daemon does not start"
dbus-send --bus="$address" --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.ListActivatableNames | grep -q '"net.hadess.SensorProxy"' ||
    fail "the system bus's directories do not make net.hadess.SensorProxy activatable"
kill "$bus"
wait "$bus" || true
bus=

# The installed daemon as orientd.socket starts it: systemd-socket-activate listens, says so, and starts the
# daemon (as user orientd, in the state directory the unit's StateDirectory= makes) at the first connection,
# which orientctl's request is; the daemon accepts it once it is up. Its output goes to a log.
install -d -o orientd -g orientd /var/lib/orientd
exec {daemon_output}< <(exec systemd-socket-activate -l "$run/orientd.sock" \
    setpriv --reuid=orientd --regid=orientd --clear-groups \
    /usr/bin/orientd run --replay "$run/demo.trace" --config /dev/null --state-directory /var/lib/orientd 2>&1)
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

# What a client sees of the daemon behind the stand-in's socket.
get_json() { timeout 20 orientctl --socket "$sock" get --json; }
expect_kept() {
    local when=$1 state
    grep -qx "mask = landscape" /etc/orientd/orientd.conf || fail "$when: the edit of /etc/orientd/orientd.conf is gone"
    state=$(get_json) || { cat "$run/units/stand-in.log" >&2; fail "$when: orientctl get failed"; }
    grep -q '"locked":true' <<<"$state" || fail "$when: the rotation lock is gone: $state"
    grep -q '"mask":"landscape"' <<<"$state" || fail "$when: the daemon does not read the edited mask: $state"
}
no_proxy_since() {
    if installed iio-sensor-proxy || pgrep -x iio-sensor-proxy >/dev/null; then fail "$1: iio-sensor-proxy is back"; fi
    if tail -n +"$2" /var/log/dpkg.log | grep -q "iio-sensor-proxy"; then
        fail "$1: dpkg acted on iio-sensor-proxy: $(tail -n +"$2" /var/log/dpkg.log | grep iio-sensor-proxy)"
    fi
}
# Installs DEB over the running service, as apt-get does it on an upgrade or a downgrade, and checks that the
# service was restarted on the new binary (try-restart), that the socket was never closed (a client connects
# every 20 ms throughout, and none may be refused), that a client subscribed through it is told, and that the
# lock and the edited configuration are kept.
replace_running() {
    local what=$1 package=$2 want=$3 before inode dpkg_log old requests_before
    shift 3
    old=$(service_pid)
    [ -n "$old" ] || fail "$what: no service running before"
    inode=$(stat -c %i "$sock")
    dpkg_log=$(($(wc -l < /var/log/dpkg.log) + 1))
    requests_before=$(requests | wc -l)
    orientctl --socket "$sock" monitor --json > "$run/monitor.out" 2> "$run/monitor.err" &
    monitor=$!
    rm -f "$run/stop-probing"
    # A connection refused, or a socket file missing, means the socket was lost; a request that the old daemon
    # accepted and dropped as it stopped is counted apart.
    (
        tries=0 refused=0 dropped=0
        until [ -e "$run/stop-probing" ]; do
            tries=$((tries + 1))
            if ! timeout 20 orientctl --socket "$sock" status --json > /dev/null 2> "$run/probe.err"; then
                if grep -q "cannot connect" "$run/probe.err"; then refused=$((refused + 1)); else dropped=$((dropped + 1)); fi
                cat "$run/probe.err" >> "$run/probe.errors"
            fi
            sleep 0.02
        done
        echo "$tries $refused $dropped" > "$run/probe.result"
    ) &
    prober=$!
    sleep 0.5
    apt_get_with_systemd install --no-install-recommends "$@" "$package"
    sleep 0.5
    touch "$run/stop-probing" && wait "$prober" && prober=
    [ "$(dpkg-query -W -f='${Version}' orientd)" = "$want" ] || fail "$what: orientd is not at $want"
    requests | tail -n +"$((requests_before + 1))" > "$run/requests"
    grep -qx "systemctl try-restart orientd.service" "$run/requests" || fail "$what: orientd.service was not restarted: $(cat "$run/requests")"
    if grep -E "(stop|restart) orientd.socket" "$run/requests"; then fail "$what: orientd.socket was stopped or restarted"; fi
    local new
    new=$(service_pid)
    [ -n "$new" ] && [ "$new" != "$old" ] && ! kill -0 "$old" 2>/dev/null || fail "$what: the service was not restarted ($old, then $new)"
    [ "$(readlink "/proc/$new/exe")" = /usr/bin/orientd ] || fail "$what: the service runs $(readlink "/proc/$new/exe")"
    [ "$(stat -c %i "$sock")" = "$inode" ] || fail "$what: the socket was made anew"
    read -r tries refused dropped < "$run/probe.result"
    [ "$refused" = 0 ] || fail "$what: $refused of $tries connections refused meanwhile: $(sort -u "$run/probe.errors")"
    local monitor_status=0
    wait "$monitor" || monitor_status=$?
    monitor=
    [ "$monitor_status" = 69 ] && grep -q "the daemon stopped" "$run/monitor.err" ||
        fail "$what: orientctl monitor was not told (status $monitor_status: $(cat "$run/monitor.err"))"
    expect_kept "$what"
    no_proxy_since "$what" "$dpkg_log"
    echo "check-deb: $what: orientd.service restarted ($old, then $new on the new /usr/bin/orientd), the socket kept ($tries connections meanwhile, none refused, $dropped dropped as the old one stopped), monitor told, lock and edit kept"
}

# Upgrade: the service runs (started by a first client), the rotation is locked, the configuration edited (a
# mask, which the service reads at start); then the later version is installed over it.
get_json > /dev/null || { cat "$run/units/stand-in.log" >&2; fail "the service did not start at the first connection"; }
timeout 20 orientctl --socket "$sock" lock
sed -i 's/^#mask = all$/mask = landscape/' /etc/orientd/orientd.conf
grep -qx "mask = landscape" /etc/orientd/orientd.conf || fail "the configuration has no '#mask = all' line to edit"
replace_running "upgrade to $next_version" "$next_deb" "$next_version"
[ ! -e /etc/orientd/orientd.conf.dpkg-dist ] && [ ! -e /etc/orientd/orientd.conf.dpkg-new ] ||
    fail "the upgrade left a new configuration beside the edited one"

# Downgrade: the same, back to this version.
replace_running "downgrade to $version" "$deb" "$version" --allow-downgrades

# Remove, not purge: the socket and the service stop, the binaries go, the configuration and the state stay; a
# new install starts the socket again, and the service it starts has the lock and the edit.
dpkg_log=$(($(wc -l < /var/log/dpkg.log) + 1))
apt_get_with_systemd remove orientd
[ "$(dpkg-query -W -f='${Status}' orientd)" = "deinstall ok config-files" ] || fail "after remove: $(dpkg-query -W -f='${Status}' orientd)"
grep -qx "systemctl stop orientd.socket" <(requests) || fail "the prerm did not stop orientd.socket"
[ ! -e "$sock" ] && [ -z "$(service_pid)" ] || fail "after remove: the socket or the service is left"
[ ! -e /usr/bin/orientd ] && [ ! -e /usr/bin/orientctl ] || fail "after remove: the binaries are left"
[ -f /var/lib/orientd/state.json ] || fail "after remove: the state file is gone"
no_proxy_since "remove" "$dpkg_log"
apt_get_with_systemd install --no-install-recommends "$deb"
[ -S "$sock" ] || fail "the new install did not start orientd.socket"
expect_kept "remove, then install again"
no_proxy_since "remove, then install again" "$dpkg_log"
echo "check-deb: removed and installed again: the lock and the edited configuration kept"

# Purge: every file the package had is gone, its directories and state with them, and its user stays.
files=$(dpkg-query -L orientd | while read -r path; do [ -d "$path" ] || echo "$path"; done)
apt_get_with_systemd purge orientd
[ ! -e "$run/units/stand-in.pid" ] || fail "the purge left orientd.socket running"
if known orientd; then fail "dpkg still knows orientd after the purge"; fi
for path in $files /etc/orientd /var/lib/orientd /usr/share/doc/orientd \
    /etc/systemd/system/sockets.target.wants/orientd.socket; do
    [ ! -e "$path" ] && [ ! -L "$path" ] || fail "$path is left after purge"
done
getent passwd orientd >/dev/null || fail "the purge removed the orientd user"
echo "check-deb: orientd $version installs, runs, upgrades to $next_version, downgrades, is removed and installed again, and purges cleanly; lintian passes"
