#!/bin/sh
# How much of the Swift test code spawns orientd or orientctl as a process: the lines under Tests/OrientdTests (the
# suites that run the binaries, with their harnesses) against every Swift line under Tests. Issue 52 asked for at
# most a quarter; docs/development/testing.md gives the figures.
set -eu
cd "$(dirname "$0")/.."
spawned=$(find Tests/OrientdTests -name '*.swift' -exec cat {} + | wc -l)
all=$(find Tests -name '*.swift' -exec cat {} + | wc -l)
awk -v s="$spawned" -v a="$all" 'BEGIN { printf "spawned-binary test lines: %d of %d (%.1f %%)\n", s, a, 100 * s / a }'
