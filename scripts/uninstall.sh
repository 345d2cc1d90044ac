#!/usr/bin/env bash
# `make uninstall`: removes what `make install` put, the Makefile handing over the paths it installs to, from the
# same PREFIX and folder variables, and DESTDIR. Then the folders `make install` made (the Makefile's
# INSTALL_RECORD says which), and orientd's own folders, each only once it is empty.
#
# Kept, and said so: /etc/orientd/orientd.conf when it differs from the shipped Systemd/orientd.conf (edited), the
# system user and group orientd (made by `make install` with systemd-sysusers; files they own may be left
# elsewhere, and a later user given their ids would own them; `userdel orientd` removes them), and the service's
# state in /var/lib/orientd (made by systemd, not by `make install`). It starts and stops nothing: if orientd's
# units are enabled, it stops before removing anything and says what to run first, since `systemctl disable`
# needs the unit files to find their links.
#
# Usage: scripts/uninstall.sh DESTDIR RECORD CONFIG OWN-FOLDERS PATH...
#   PATH: as installed, without DESTDIR; one with a * is a pattern, matched under DESTDIR.
set -euo pipefail
shopt -s nullglob
[ $# -ge 4 ] || { echo "usage: scripts/uninstall.sh DESTDIR RECORD CONFIG OWN-FOLDERS PATH..." >&2; exit 64; }
destdir=$1 record=$2 config=$3 own_folders=$4
shift 4
shipped_config=$(dirname "$0")/../Systemd/orientd.conf

# systemctl enable (and --global enable) put their links here, whatever folder the units are in.
enabled=("$destdir"/etc/systemd/system/*.wants/orientd.socket "$destdir"/etc/systemd/system/*.wants/orientd.service
    "$destdir"/etc/systemd/user/*.wants/orientd-follow.service)
if ((${#enabled[@]})); then
    echo "make uninstall: orientd's units are enabled (${enabled[*]}): first run" \
        "systemctl disable --now orientd.socket orientd.service; systemctl --global disable orientd-follow.service" >&2
    exit 1
fi

removed=0
for path in "$@"; do
    # A pattern expands here, under DESTDIR (nullglob: to nothing when nothing matches).
    # shellcheck disable=SC2206
    matches=("$destdir"$path)
    for file in "${matches[@]}"; do
        if [ -e "$file" ] || [ -L "$file" ]; then
            rm -f "$file"
            removed=$((removed + 1))
        fi
    done
done
echo "make uninstall: removed $removed files"

config_path=$destdir$config
if [ -f "$config_path" ]; then
    if cmp -s "$config_path" "$shipped_config"; then
        rm -f "$config_path"
        echo "make uninstall: removed $config_path (as shipped)"
    else
        echo "make uninstall: kept $config_path: it differs from Systemd/orientd.conf (edited); delete it when it is" \
            "no longer wanted"
    fi
fi

# The folders: those the record names for this DESTDIR, and orientd's own; deepest first (a folder sorts after
# its parent, so in reverse before it).
tab=$'\t'
folders=()
if [ -f "$record" ]; then
    while IFS= read -r line; do
        [ "${line%%"$tab"*}" = "$destdir" ] && folders+=("${line#*"$tab"}")
    done < "$record"
fi
# shellcheck disable=SC2206
folders+=($own_folders)
removed_folders=0
while IFS= read -r folder; do
    [ -n "$folder" ] && [ -d "$destdir$folder" ] || continue
    if rmdir "$destdir$folder" 2>/dev/null; then removed_folders=$((removed_folders + 1)); fi
done < <(printf '%s\n' "${folders[@]}" | sort -ru)
echo "make uninstall: removed $removed_folders folders that make install had made, now empty"
# The record keeps only what still exists (of every DESTDIR).
if [ -f "$record" ]; then
    while IFS= read -r line; do
        if [ -d "${line%%"$tab"*}${line#*"$tab"}" ]; then printf '%s\n' "$line"; fi
    done < "$record" > "$record.new"
    mv "$record.new" "$record"
fi

if [ -z "$destdir" ]; then
    if [ -d /var/lib/orientd ]; then
        echo "make uninstall: kept /var/lib/orientd, the service's state (systemd made it, not make install)"
    fi
    echo "make uninstall: the system user and group orientd are kept, as packages keep theirs: userdel orientd" \
        "(then groupdel orientd, if the group is left) removes them"
    echo "uninstalled; then: systemctl daemon-reload && udevadm control --reload && systemctl reload dbus"
fi
