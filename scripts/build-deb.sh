#!/usr/bin/env bash
# Builds orientd's Debian package (debian/) with dpkg-buildpackage and prints the path of the .deb, which goes
# to .build/deb with the .buildinfo and .changes, not to the parent directory. Called by `make deb`, after
# `make release`.
#
# Usage: scripts/build-deb.sh [--version-suffix SUFFIX --out FOLDER]
# With a suffix, the same build is packaged as a later version (0.1.0+SUFFIX) into FOLDER: `make check-deb`
# upgrades to it, and downgrades from it, without the committed version changing.
set -euo pipefail
cd "$(dirname "$0")/.."

suffix= out=.build/deb
while (($#)); do
    case $1 in
        --version-suffix) suffix=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        *) echo "build-deb: unknown argument $1" >&2; exit 64 ;;
    esac
done

# The package's version is the daemon's own (Sources/OrientProtocol/OrientdVersion.swift), as the release binary
# reports it, so that `dpkg -s orientd` and `orientd --version` cannot disagree. debian/changelog (git ignores
# it) is written from NEWS.md, whose newest section must be that version; an unreleased one is dated by the last
# commit, as the manual pages are, not by the day of the build. A --version-suffix (check-deb's second version)
# gets an entry of its own above NEWS.md's.
base=$(.build/release/orientd --version)
version=$base$suffix
dpkg --validate-version "$version" ||
    { echo "build-deb: orientd --version printed '$version', not a Debian version" >&2; exit 1; }
maintainer=$(sed -n 's/^Maintainer: //p' debian/control)
date=$(git log -1 --format=%cD 2>/dev/null || date -R)
changelog=$(scripts/news-to-changelog.sh "$base" "$maintainer" "$date")
if [ -n "$suffix" ]; then
    changelog=$(printf 'orientd (%s) unstable; urgency=medium\n\n  * A test version of %s for make check-deb.\n\n -- %s  %s\n\n%s' \
        "$version" "$base" "$maintainer" "$date" "$changelog")
fi
printf '%s\n' "$changelog" > debian/changelog

arch=$(dpkg --print-architecture)
rm -rf "$out"
mkdir -p "$out"
ORIENTD_DEB_DIR=$(realpath "$out")
export ORIENTD_DEB_DIR
# Binary only (-b), unsigned: a package for this machine's architecture, built from this checkout.
dpkg-buildpackage -b --no-sign \
    --buildinfo-option=-u"$out" --buildinfo-file="$out/orientd_${version}_$arch.buildinfo" \
    --changes-option=-u"$out" --changes-file="$out/orientd_${version}_$arch.changes" >&2
echo "$out/orientd_${version}_$arch.deb"
