#!/usr/bin/env bash
# Assembles the LV2 bundles from plugins/ and a build's plugin libraries, and the preset
# bundles from presets/.
#   scripts/stage-bundles.sh BUILD_BIN_DIR DEST_DIR
# e.g. scripts/stage-bundles.sh .build/debug .build/lv2   (what the tests load)
#      scripts/stage-bundles.sh .build-release/release ~/.lv2
set -euo pipefail
bin=$1 dest=$2
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dest"
# Earlier spk versions had a bundle (and library) per plugin: left beside spk.lv2 they would
# declare the same plugins twice.
rm -rf "$dest"/spk-espeak-ng.lv2 "$dest"/spk-flite.lv2 "$dest"/spk-neural.lv2 "$dest"/spk-personal.lv2
for bundle in "$root"/plugins/*.lv2; do
    name=$(basename "$bundle" .lv2)                  # spk
    lib="$bin/lib${name//-/_}.so"                    # libspk.so
    if [ ! -f "$lib" ]; then echo "stage-bundles: $lib is not built" >&2; exit 1; fi
    out="$dest/$name.lv2"
    rm -rf "$out"
    mkdir -p "$out"
    cp "$bundle"/*.ttl "$out/"
    cp "$lib" "$out/$name.so"
    # The bundle's plugin window, when its manifest declares one (spk_ui.so from libspk_ui.so).
    if grep -q "<${name}_ui.so>" "$bundle/manifest.ttl"; then
        ui="$bin/lib${name//-/_}_ui.so"
        if [ ! -f "$ui" ]; then echo "stage-bundles: $ui is not built" >&2; exit 1; fi
        cp "$ui" "$out/${name}_ui.so"
    fi
done
# Preset bundles are data only: copied as they are.
for bundle in "$root"/presets/*.lv2; do
    [ -d "$bundle" ] || continue
    rm -rf "$dest/$(basename "$bundle")"
    cp -r "$bundle" "$dest/"
done
echo "staged $(ls -d "$root"/plugins/*.lv2 "$root"/presets/*.lv2 | wc -l) bundle(s) in $dest"
