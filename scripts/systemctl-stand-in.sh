#!/usr/bin/env bash
# systemctl as orientd's maintainer scripts call it (directly and through deb-systemd-invoke), for
# scripts/check-deb.sh on a machine where systemd does not run: check-deb puts it first in PATH, as `systemctl`,
# while dpkg runs them. Every call is logged; orientd's two units are acted out by scripts/unit-stand-in.py, whose
# folder is $ORIENTD_STAND_IN (with the socket's path in $ORIENTD_STAND_IN_SOCKET and the arguments added to the
# service's ExecStart in $ORIENTD_STAND_IN_ARGS); any other request fails, so that none goes unnoticed.
set -euo pipefail
folder=${ORIENTD_STAND_IN:?}
echo "systemctl $*" >> "$folder/systemctl.log"

# On files only, no manager needed (deb-systemd-helper's presets): systemctl itself.
for argument in "$@"; do
    case $argument in --root=*) exec /usr/bin/systemctl "$@" ;; esac
done

words=()
for argument in "$@"; do
    case $argument in --system | --quiet | --no-legend | --) ;; *) words+=("$argument") ;; esac
done
action=${words[0]:-}
units=("${words[@]:1}")

running() { [ -f "$folder/$1.pid" ] && kill -0 "$(cat "$folder/$1.pid")" 2>/dev/null; }
# systemctl waits for the job to finish; so does this, for the stand-in's pid files.
wait_until() {
    for _ in $(seq 200); do
        if eval "$1"; then return 0; fi
        sleep 0.05
    done
    echo "systemctl stand-in: timed out waiting for: $1" >&2
    exit 1
}

for unit in "${units[@]:-}"; do
    case "$action $unit" in
        "daemon-reload ") ;;
        "is-enabled orientd.socket")
            if [ -L /etc/systemd/system/sockets.target.wants/orientd.socket ]; then echo enabled; else echo disabled; exit 1; fi ;;
        # Its [Install] section only names the socket (Also=), as systemctl reports such a unit.
        "is-enabled orientd.service") echo indirect ;;
        "is-active orientd.socket") running stand-in ;;
        "is-active orientd.service") running service ;;
        "start orientd.socket")
            if ! running stand-in; then
                read -r -a extra <<< "${ORIENTD_STAND_IN_ARGS:-}"
                setsid "$(dirname "$(realpath "$0")")/unit-stand-in.py" /usr/lib/systemd/system/orientd.service \
                    "${ORIENTD_STAND_IN_SOCKET:?}" "$folder" -- "${extra[@]}" </dev/null >>"$folder/stand-in.log" 2>&1 &
                wait_until "running stand-in"
            fi ;;
        "stop orientd.socket")
            if running stand-in; then
                kill -TERM "$(cat "$folder/stand-in.pid")"
                wait_until "! running stand-in"
            fi ;;
        "try-restart orientd.service")
            if running service; then
                old=$(cat "$folder/service.pid")
                kill -USR1 "$(cat "$folder/stand-in.pid")"
                wait_until "running service && [ \"\$(cat '$folder/service.pid')\" != $old ]"
            fi ;;
        # The tablet-mode switch's keeper, started by udev where a base accelerometer is: none here.
        "try-restart orientd-tablet-mode-switch.service") ;;
        "is-enabled orientd-tablet-mode-switch.service") echo static ;;
        # Another package's unit (iio-sensor-proxy's prerm, as orientd's install removes it): not running here.
        "stop "*) ;;
        "is-active "*) exit 3 ;;
        *) echo "systemctl stand-in: '$*' is not acted out" >&2; exit 1 ;;
    esac
done
