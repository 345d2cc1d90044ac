#!/usr/bin/env bash
# Runs the load suite (Tests/OrientdTests/Load) by hand, optionally with bigger numbers than `make test` uses:
#   scripts/load-test.sh [--clients N] [--seconds S] [--cycles N] [--stallers N]
# e.g. scripts/load-test.sh --clients 4000 --seconds 300
# The defaults are make test's: 1000 subscribers for 60 s, 10,000 connect/disconnect cycles, 500 stalled clients.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"

while [ $# -gt 0 ]; do
    case "$1" in
        --clients) export ORIENTD_LOAD_CLIENTS="$2" ;;
        --seconds) export ORIENTD_LOAD_SECONDS="$2" ;;
        --cycles) export ORIENTD_LOAD_CYCLES="$2" ;;
        --stallers) export ORIENTD_LOAD_STALLERS="$2" ;;
        *) echo "usage: $0 [--clients N] [--seconds S] [--cycles N] [--stallers N]" >&2; exit 64 ;;
    esac
    shift 2
done

# Every client is a descriptor in the test process too; the tests raise their own soft limit to the hard one,
# which must be above the number of clients.
echo "open-file limit: soft $(ulimit -Sn), hard $(ulimit -Hn)"
swift build --build-tests
time swift test --skip-build --no-parallel --filter LoadTests
