#!/usr/bin/env bash
# Builds spk's libFuzzer targets (Fuzz/, a package of its own, with -sanitize=fuzzer,address)
# and runs one for a while:  scripts/fuzz.sh ssml|render SECONDS [libFuzzer options...]
# Inputs come from Fuzz/corpus/TARGET (seeds: the tests' requests and SSML 1.1's examples;
# what libFuzzer finds is added to a scratch copy), with Fuzz/ssml.dict. A crash is saved
# under Fuzz/crashes/TARGET/; keep it in Fuzz/regressions/ once fixed (FuzzRegressionTests
# replays them). Exits non-zero when the run found a crash, leak or timeout.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/fuzz.sh ssml|render SECONDS}
seconds=${2:?usage: scripts/fuzz.sh ssml|render SECONDS}
shift 2
case "$target" in
    ssml) product=FuzzSSML ;;
    render) product=FuzzRender ;;
    *) echo "fuzz.sh: unknown target '$target' (ssml or render)" >&2; exit 2 ;;
esac
build() {
    swift build -c release --package-path Fuzz --product "$product" \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library > "$1" 2>&1
}
log=$(mktemp)
if ! build "$log"; then
    # SwiftPM keeps the main package's source lists in Fuzz/.build between builds: a file moved
    # or removed there leaves them stale ("missing inputs"). Once more, from a new description.
    rm -f Fuzz/.build/release.yaml Fuzz/.build/build.db Fuzz/.build/*/release/description.json
    build "$log" || { grep -v "ld.gold: warning" "$log" | tail -20 >&2; rm -f "$log"; exit 1; }
fi
grep -v "ld.gold: warning" "$log" | tail -3
rm -f "$log"
binary=$(swift build -c release --package-path Fuzz --show-bin-path)/$product
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "Fuzz/corpus/$target" "$work/corpus"
mkdir -p "Fuzz/crashes/$target"
# ASan's leak check is off: espeak-ng and flite keep process-wide state on purpose.
ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 \
"$binary" "$work/corpus" -dict=Fuzz/ssml.dict -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 \
    -max_len=8192 -artifact_prefix="Fuzz/crashes/$target/" -print_final_stats=1 "$@"
