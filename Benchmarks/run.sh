#!/usr/bin/env bash
# Runs spk's benchmarks as ../BENCHMARKS.md describes: release plugins staged on a private LV2
# path, the engine helper built beside the benchmarks, every benchmark in one run, then the summary.
#   Benchmarks/run.sh                      everything (about 40 minutes on 2 cores)
#   Benchmarks/run.sh --filter 'Throughput.*'   a part (arguments go to `swift package benchmark`)
set -euo pipefail
cd "$(dirname "$0")"
# The plugins as users install them (scripts/setup.sh): release, static Swift runtime.
(cd .. && swift build -c release --scratch-path .build-release -Xswiftc -static-stdlib)
../scripts/stage-bundles.sh ../.build-release/release .build/lv2
export LV2_PATH=$PWD/.build/lv2
swift build -c release --product spk-engine-bench
command -v espeak-ng >/dev/null && command -v flite >/dev/null \
    || { echo "run.sh: the engines' command lines are needed too: apt-get install espeak-ng flite" >&2; exit 1; }
swift package --disable-sandbox benchmark --no-progress "$@" | tee .build/benchmarks.txt
python3 summarize.py .build/benchmarks.txt
