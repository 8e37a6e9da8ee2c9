#!/usr/bin/env bash
# First sound through speech-dispatcher: sd_spk beside speech-dispatcher's own espeak-ng module,
# in one private server, the same texts, requests taking turns (BENCHMARKS.md, "speech-dispatcher").
#   Benchmarks/speechd/run.sh [COUNT]        (default 30 requests per module and text)
# Uses the release build (.build-release: scripts/setup.sh makes it) and the plugins staged from it.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
count=${1:-30}
build=$root/.build-release/release
[ -x "$build/sd_spk" ] || { echo "error: $build/sd_spk is not built (scripts/setup.sh, or swift build -c release --scratch-path .build-release)" >&2; exit 1; }
work=$(mktemp -d /tmp/spk-speechd-bench.XXXXXX)
server=""
cleanup() {
    if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then
        kill "$server"; for _ in $(seq 50); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
        kill -0 "$server" 2>/dev/null && kill -9 "$server"
    fi
    rm -rf "$work"
}
trap cleanup EXIT
"$root/scripts/stage-bundles.sh" "$build" "$work/lv2" >/dev/null
mkdir -p "$work/home" "$work/conf/modules" "$work/log" "$work/data"
# The headless sound card: ALSA's file plugin into scripts/paced-alsa-sink.py, which takes the
# stream at a real card's pace and logs when each piece arrived and whether it held sound.
cat > "$work/home/.asoundrc" <<ASOUND
pcm.!default {
    type file
    slave.pcm "null"
    file "|$root/scripts/paced-alsa-sink.py %r $work/device.raw $work/device.log"
    format "raw"
}
ASOUND
cp "$root/config/spk.conf" "$work/conf/modules/spk.conf"
cat > "$work/conf/speechd.conf" <<CONF
AudioOutputMethod "alsa"
AddModule "spk" "$build/sd_spk" "$work/conf/modules/spk.conf"
AddModule "espeak-ng" "sd_espeak-ng" "espeak-ng.conf"
LogLevel 1
LogDir "$work/log"
CONF
HOME=$work/home LV2_PATH=$work/lv2 XDG_DATA_HOME=$work/data XDG_RUNTIME_DIR=$work \
    speech-dispatcher -s -C "$work/conf" -S "$work/sock" -t 0 >"$work/server.out" 2>&1 &
server=$!
for _ in $(seq 100); do [ -S "$work/sock" ] && break; sleep 0.05; done
/usr/bin/python3 "$root/Benchmarks/speechd/first_sound.py" "$work/sock" "$work/device.log" 22050 "$count" spk espeak-ng -- \
    "Hello" "The quick brown fox jumps over the lazy dog, and then it runs into the forest." > "$work/results.json"
# The modules alone, over their protocol without a server or device: SPEAK to the first 705
# AUDIO piece holding a non-zero sample.
LV2_PATH=$work/lv2 XDG_DATA_HOME=$work/data /usr/bin/python3 "$root/Benchmarks/speechd/module_first_audio.py" "$count" \
    "spk=$build/sd_spk:$root/config/spk.conf" \
    "espeak-ng=/usr/lib/speech-dispatcher-modules/sd_espeak-ng:/etc/speech-dispatcher/modules/espeak-ng.conf" -- \
    "Hello" "The quick brown fox jumps over the lazy dog, and then it runs into the forest." > "$work/modules.json"
for part in "results.json:speak() to the first non-zero sample at the device, through speech-dispatcher" \
            "modules.json:SPEAK to the module's first non-zero 705 AUDIO piece, no server"; do
/usr/bin/python3 - "$work/${part%%:*}" "${part#*:}" <<'PY'
import json, statistics, sys
results = json.load(open(sys.argv[1]))
print(sys.argv[2])
print(f"{'module':<10} {'text':<10} {'n':>3} {'median ms':>10} {'p90 ms':>8}")
for module, texts in results.items():
    for text, times in texts.items():
        times = sorted(times)
        if not times:
            print(f"{module:<10} {text[:10]:<10}   0  (no sound reached the device)"); continue
        p90 = times[min(len(times) - 1, int(round(0.9 * (len(times) - 1))))]
        label = "word" if len(text.split()) == 1 else "sentence"
        print(f"{module:<10} {label:<10} {len(times):>3} {statistics.median(times):>10.2f} {p90:>8.2f}")
PY
done
