#!/usr/bin/env bash
# Installs the Debian packages orientd needs to build and test, and checks for the Swift toolchain.
# Idempotent: apt is only called when a package is missing.
set -euo pipefail

# systemd: systemd-analyze (unit checks) and systemd-socket-activate (socket activation test).
# util-linux: setpriv (the permission tests run a client as another user).
# libiio and libudev: the live sensor; umockdev: emulated sensors for the integration tests.
packages=(ca-certificates dpkg-dev systemd util-linux pkg-config libiio-dev libudev-dev umockdev gir1.2-umockdev-1.0 python3-gi)

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    echo "installing: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if ! command -v swift >/dev/null; then
    echo "swift not found: install a Swift 6.1 or later toolchain and put it on PATH" >&2
    exit 1
fi
