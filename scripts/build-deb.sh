#!/usr/bin/env bash
# Builds orientd's Debian package (debian/) with dpkg-buildpackage and prints the path of the .deb, which goes
# to .build/deb with the .buildinfo and .changes, not to the parent directory. Called by `make deb`, after
# `make release`.
set -euo pipefail
cd "$(dirname "$0")/.."

# The package's version is the daemon's own (Sources/orientd/OrientdVersion.swift), as the release binary
# reports it, so that `dpkg -s orientd` and `orientd --version` cannot disagree. debian/changelog (git ignores
# it) is written from NEWS.md, whose newest section must be that version; an unreleased one is dated by the last
# commit, as the manual pages are, not by the day of the build.
version=$(.build/release/orientd --version)
dpkg --validate-version "$version" ||
    { echo "build-deb: orientd --version printed '$version', not a Debian version" >&2; exit 1; }
maintainer=$(sed -n 's/^Maintainer: //p' debian/control)
date=$(git log -1 --format=%cD 2>/dev/null || date -R)
changelog=$(scripts/news-to-changelog.sh "$version" "$maintainer" "$date")
printf '%s\n' "$changelog" > debian/changelog

out=.build/deb
arch=$(dpkg --print-architecture)
rm -rf "$out"
mkdir -p "$out"
# Binary only (-b), unsigned: a package for this machine's architecture, built from this checkout.
dpkg-buildpackage -b --no-sign \
    --buildinfo-option=-u"$out" --buildinfo-file="$out/orientd_${version}_$arch.buildinfo" \
    --changes-option=-u"$out" --changes-file="$out/orientd_${version}_$arch.changes" >&2
echo "$out/orientd_${version}_$arch.deb"
