#!/usr/bin/env bash
# Builds orientd's Debian package (debian/) with dpkg-buildpackage and prints the path of the .deb, which goes
# to .build/deb with the .buildinfo and .changes, not to the parent directory. Called by `make deb`, after
# `make release`.
set -euo pipefail
cd "$(dirname "$0")/.."

# The package's version is the daemon's own (Sources/orientd/OrientdVersion.swift), as the release binary
# reports it, so that `dpkg -s orientd` and `orientd --version` cannot disagree. debian/changelog is written
# from it (git ignores it), dated by the last commit as the manual pages are, not by the day of the build.
version=$(.build/release/orientd --version)
dpkg --validate-version "$version" ||
    { echo "build-deb: orientd --version printed '$version', not a Debian version" >&2; exit 1; }
maintainer=$(sed -n 's/^Maintainer: //p' debian/control)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
date=$(git log -1 --format=%cD 2>/dev/null || date -R)
cat > debian/changelog <<CHANGELOG
orientd ($version) unstable; urgency=medium

  * orientd $version, built from commit $commit by make deb.

 -- $maintainer  $date
CHANGELOG

out=.build/deb
arch=$(dpkg --print-architecture)
rm -rf "$out"
mkdir -p "$out"
# Binary only (-b), unsigned: a package for this machine's architecture, built from this checkout.
dpkg-buildpackage -b --no-sign \
    --buildinfo-option=-u"$out" --buildinfo-file="$out/orientd_${version}_$arch.buildinfo" \
    --changes-option=-u"$out" --changes-file="$out/orientd_${version}_$arch.changes" >&2
echo "$out/orientd_${version}_$arch.deb"
