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
echo "1 passed, 0 failed"
