#!/usr/bin/env bash
# What orientd needs to be built (`make build`, `release`, `run`, `install`, `docs`, `deb`), and nothing more: a
# Swift 6.1 or later toolchain, and libiio, libudev and libsystemd with their development files, which SwiftPM
# finds through pkg-config. It starts, stops, enables and disables no service, creates no user, group or locale,
# and installs no package that only the tests use (scripts/test-deps.sh, for `make test`, does those).
#
# On Debian and its derivatives (apt-get and dpkg-query on PATH), the packages below that are not installed are
# installed with apt-get (through sudo when not root), and nothing when none is missing. Packages named on the
# command line are Debian packages a developer target needs besides (make order-file: valgrind; make deb:
# debhelper; make check-deb: lintian). Elsewhere nothing is installed: pkg-config is asked for the three
# libraries (and git is looked for), and what is not found is named with the command that installs it on Fedora
# (dnf) and on Arch (pacman), and the script exits 1. Everywhere, `swift --version` (SWIFT, else swift on PATH)
# must say 6.1 or later; if not, the script says where Swift comes from on each distribution and exits 1, before
# installing anything.
#
# Usage: scripts/build-deps.sh [DEBIAN-PACKAGE...]
set -euo pipefail

swift=${SWIFT:-swift}
# The three libraries as pkg-config names them (Package.swift's systemLibrary targets).
modules=(libiio libudev libsystemd)

# pkg-config: SwiftPM reads the libraries' compiler and linker flags through it.
# libiio-dev: the live sensor, read through libiio (buffered or polled capture).
# libudev-dev: finding the sensors, and hotplug.
# libsystemd-dev: sd-bus for the net.hadess.SensorProxy facade, and sd_notify.
# git and ca-certificates: SwiftPM fetches the package's dependencies with git over https, and `make docs` dates
# the manual pages by the last commit.
debian_packages=(pkg-config libiio-dev libudev-dev libsystemd-dev git ca-certificates)
# The same on Fedora and Arch. Fedora's systemd-devel holds both libudev's and libsystemd's files; Arch ships
# headers with the libraries (systemd-libs holds both).
declare -A fedora_package=([pkg-config]=pkgconf-pkg-config [git]=git [libiio]=libiio-devel [libudev]=systemd-devel
    [libsystemd]=systemd-devel)
declare -A arch_package=([pkg-config]=pkgconf [git]=git [libiio]=libiio [libudev]=systemd-libs [libsystemd]=systemd-libs)

swift_help() {
    cat <<'HELP'
Swift 6.1 or later comes from:
  Debian, Ubuntu:  swift.org/install: swiftly (its installer; it names the packages the toolchain needs), or the
                   Debian 12 tarball unpacked into /opt/swift (the Makefile looks in /opt/swift/usr/bin)
  Fedora:          sudo dnf install swift-lang, if `dnf info swift-lang` shows 6.1 or later on your release;
                   else swift.org/install (swiftly)
  Arch:            not in Arch's repositories: swift.org/install (swiftly), or the AUR (swift-bin, swiftly-bin)
Put its usr/bin on PATH, or name the swift program with SWIFT=... (make SWIFT=/path/to/swift ...).
HELP
}

# Succeeds if SWIFT runs and says 6.1 or later.
swift_ok() {
    local version major minor
    version=$("$swift" --version 2>/dev/null | sed -n 's/.*Swift version \([0-9][0-9]*\)\.\([0-9][0-9]*\).*/\1 \2/p' | head -n 1)
    [ -n "$version" ] || { swift_problem="$swift not found, or it does not say its version"; return 1; }
    read -r major minor <<<"$version"
    if ((major > 6 || (major == 6 && minor >= 1))); then return 0; fi
    swift_problem="$swift is Swift $major.$minor; orientd needs 6.1 or later"
    return 1
}

# The modules pkg-config does not find (all of them without pkg-config).
missing_modules() {
    local module
    for module in "${modules[@]}"; do
        if ! command -v pkg-config >/dev/null || ! pkg-config --exists "$module"; then echo "$module"; fi
    done
}

swift_problem=
swift_ok || true

if command -v apt-get >/dev/null && command -v dpkg-query >/dev/null; then
    if [ -n "$swift_problem" ]; then
        echo "build-deps: $swift_problem" >&2
        swift_help >&2
        exit 1
    fi
    missing=()
    for package in "${debian_packages[@]}" "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    if ((${#missing[@]})); then
        sudo=""
        [ "$(id -u)" = 0 ] || sudo=sudo
        echo "build-deps: installing ${missing[*]}"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
    not_found=$(missing_modules)
    if [ -n "$not_found" ]; then
        echo "build-deps: pkg-config does not find $(echo $not_found) although their packages are installed" >&2
        exit 1
    fi
    exit 0
fi

# Not Debian: nothing is installed; what is missing is named.
echo "build-deps: no apt-get or dpkg-query here: checking with pkg-config, installing nothing"
if (($#)); then
    echo "build-deps: this target also needs what Debian calls: $* (install it yourself)"
fi
not_found=$(missing_modules)
no_git=
command -v git >/dev/null || no_git=yes
if [ -z "$not_found" ] && [ -z "$no_git" ] && [ -z "$swift_problem" ]; then exit 0; fi
{
    if [ -n "$not_found" ] || [ -n "$no_git" ]; then
        fedora=() arch=()
        if ! command -v pkg-config >/dev/null; then
            echo "build-deps: pkg-config not found"
            fedora+=("${fedora_package[pkg-config]}") arch+=("${arch_package[pkg-config]}")
        fi
        if [ -n "$no_git" ]; then
            echo "build-deps: git not found (SwiftPM fetches the package's dependencies with it)"
            fedora+=("${fedora_package[git]}") arch+=("${arch_package[git]}")
        fi
        [ -z "$not_found" ] || echo "build-deps: pkg-config does not find: $(echo $not_found)"
        for module in $not_found; do
            fedora+=("${fedora_package[$module]}") arch+=("${arch_package[$module]}")
        done
        # Each package once, in order.
        mapfile -t fedora < <(printf '%s\n' "${fedora[@]}" | awk '!seen[$0]++')
        mapfile -t arch < <(printf '%s\n' "${arch[@]}" | awk '!seen[$0]++')
        echo "  Fedora:  sudo dnf install ${fedora[*]}"
        echo "  Arch:    sudo pacman -S --needed ${arch[*]}"
        [ -z "$not_found" ] ||
            echo "  elsewhere: the packages with the pkg-config files $(echo $not_found | sed 's/\([^ ]*\)/\1.pc/g')"
    fi
    if [ -n "$swift_problem" ]; then
        echo "build-deps: $swift_problem"
        swift_help
    fi
} >&2
exit 1
