#!/usr/bin/env bash
# Builds the release plugin as setup.sh does (static Swift runtime), loads it from a fresh LV2
# path with the release spkhost and lv2info, and checks the example comes out as speech.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --scratch-path .build-release -Xswiftc -static-stdlib
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
scripts/stage-bundles.sh .build-release/release "$tmp/lv2" >/dev/null
if ldd "$tmp"/lv2/spk.lv2/spk.so | grep -q libswiftCore; then
    echo "release-smoke: the plugin links the shared Swift runtime" >&2; exit 1
fi
export LV2_PATH=$tmp/lv2
lv2info urn:spk:synth:espeak-ng >/dev/null
.build-release/release/spkhost render --output "$tmp/hello.wav" --markers "$tmp/hello.json" \
    --ssml '<speak>Hello <break time="1s"/><prosody rate="200%">nice to meet you!</prosody></speak>'
length=$(sox "$tmp/hello.wav" -n stat 2>&1 | awk '/Length/ {print $3}')
rms=$(sox "$tmp/hello.wav" -n stat 2>&1 | awk '/RMS +amplitude/ {print $3}')
words=$(grep -c '"word"' "$tmp/hello.json")
echo "release-smoke: ${length}s, RMS $rms, $words word markers"
awk -v l="$length" -v r="$rms" -v w="$words" 'BEGIN { exit !(l > 1.5 && l < 3 && r > 0.01 && w == 5) }' \
    || { echo "release-smoke: the example did not render as expected" >&2; exit 1; }
# Installed as setup.sh installs it (spkhost and the malloc interposer side by side, away from
# the build directory), bench counts run()'s allocations.
mkdir -p "$tmp/bin"
install -m 0755 .build-release/release/spkhost "$tmp/bin/spkhost"
install -m 0644 .build-release/release/libMallocInterposerSwift.so "$tmp/bin/libMallocInterposerSwift.so"
allocations=$("$tmp/bin/spkhost" bench --block 256 --requests 2 --renders 0 --json | grep -o '"runAllocations" : [^,}]*' | head -1)
echo "release-smoke: installed bench $allocations"
case "$allocations" in
    *:\ [0-9]*) ;;
    *) echo "release-smoke: the installed spkhost bench did not count allocations ($allocations)" >&2; exit 1 ;;
esac
echo "2 passed, 0 failed"
