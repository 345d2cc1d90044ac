#!/bin/sh
# Builds the libFuzzer targets in Fuzz/ (with AddressSanitizer) and runs one or all of them.
#
#   scripts/fuzz.sh [TARGET|all] [SECONDS] [extra libFuzzer options...]
#
# TARGET is fuzz-trace, fuzz-mount-matrix, fuzz-configuration or fuzz-request (default: all); SECONDS per
# target (default 300). New inputs go to a scratch copy of the corpus, so Fuzz/Corpus stays small; crashes,
# leaks and timeouts are written to Fuzz/.build-fuzz/artifacts/TARGET/. Logs: Fuzz/.build-fuzz/logs/TARGET.log.
set -eu

target=${1:-all}
seconds=${2:-300}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift

root=$(cd "$(dirname "$0")/.." && pwd)
fuzz="$root/Fuzz"
scratch="$fuzz/.build-fuzz"
targets="fuzz-trace fuzz-mount-matrix fuzz-configuration fuzz-request"
[ "$target" = all ] || targets=$target
PATH="/opt/swift/usr/bin:$PATH"

for name in $targets; do
    # SwiftPM passes --sanitize flags as separate -sanitize= options, of which swiftc keeps only the last; the
    # combined -Xswiftc option comes after them, so every module gets both coverage and address checks.
    (cd "$fuzz" && swift build -c release --product "$name" --scratch-path "$scratch" \
        --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address)
done

for name in $targets; do
    corpus="$scratch/corpus/$name"
    artifacts="$scratch/artifacts/$name"
    mkdir -p "$corpus" "$artifacts" "$scratch/logs"
    echo "== $name for ${seconds}s (log: $scratch/logs/$name.log)"
    # The Swift runtime's backtracer would hang waiting on a crashed fuzzer; libFuzzer prints its own trace.
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=1 "$scratch/release/$name" \
        -max_total_time="$seconds" -timeout=2 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$artifacts/" "$@" "$corpus" "$fuzz/Corpus/$name" \
        >"$scratch/logs/$name.log" 2>&1 || { tail -n 40 "$scratch/logs/$name.log"; exit 1; }
    grep -E '([[:space:]]DONE |^Done |^stat::)' "$scratch/logs/$name.log" || true
done
