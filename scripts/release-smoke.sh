#!/usr/bin/env bash
# Builds the release plugin as setup.sh does (static Swift runtime), loads it from a fresh LV2
# path with the release spkhost and lv2info, and checks the example comes out as speech.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --scratch-path .build-release -Xswiftc -static-stdlib
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
scripts/stage-bundles.sh .build-release/release "$tmp/lv2" >/dev/null
for lib in spk.so spk_ui.so; do
    if ldd "$tmp/lv2/spk.lv2/$lib" | grep -q libswiftCore; then
        echo "release-smoke: $lib links the shared Swift runtime" >&2; exit 1
    fi
done
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
passed=1
# Installed as setup.sh installs it (spkhost and the malloc interposer side by side, away from
# the build directory), bench counts run()'s allocations.
mkdir -p "$tmp/bin"
install -m 0755 .build-release/release/spkhost "$tmp/bin/spkhost"
install -m 0644 .build-release/release/libMallocInterposerSwift.so "$tmp/bin/libMallocInterposerSwift.so"
allocations=$("$tmp/bin/spkhost" bench --block 256 --requests 2 --renders 0 --json | grep -o '"runAllocations" : [^,}]*' | head -1)
echo "release-smoke: installed bench $allocations"
case "$allocations" in
    *:\ [0-9]*) passed=$((passed + 1)) ;;
    *) echo "release-smoke: the installed spkhost bench did not count allocations ($allocations)" >&2; exit 1 ;;
esac
# The window and the plugin, each with its own static Swift runtime, in one host: jalv.gtk3
# under Xvfb opens the window, which gets the plugin's voice list through the host.
if command -v Xvfb >/dev/null && command -v jackd >/dev/null; then
    display=":$((300 + $$ % 300))" server="spk-smoke-$$"
    Xvfb "$display" -screen 0 800x600x24 -nolisten tcp -noreset >/dev/null 2>&1 & xvfb=$!
    jackd --no-realtime -n "$server" -d dummy -r 48000 -p 256 >/dev/null 2>&1 & jack=$!
    jack_wait -s "$server" -w -t 10 >/dev/null 2>&1
    DISPLAY=$display JACK_DEFAULT_SERVER=$server JACK_NO_START_SERVER=1 SPK_UI_TRACE=$tmp/window.trace \
        jalv.gtk3 --jack-name spk-smoke urn:spk:synth:espeak-ng >"$tmp/jalv.log" 2>&1 & jalv=$!
    for _ in $(seq 100); do grep -q '^voices ' "$tmp/window.trace" 2>/dev/null && break; sleep 0.1; done
    kill "$jalv" 2>/dev/null; sleep 0.5; kill "$jack" "$xvfb" 2>/dev/null || true
    wait "$jalv" "$jack" "$xvfb" 2>/dev/null || true
    grep -q '^voices ' "$tmp/window.trace" 2>/dev/null \
        || { echo "release-smoke: the window in jalv.gtk3 got no voice list" >&2; cat "$tmp/jalv.log" >&2; exit 1; }
    echo "release-smoke: the window opened in jalv.gtk3 ($(grep '^voices ' "$tmp/window.trace"))"
    passed=$((passed + 1))
fi
echo "$passed passed, 0 failed"
