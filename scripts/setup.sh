#!/usr/bin/env bash
# Sets spk up on Debian 12: packages, a release build, the LV2 bundles where lilv finds them
# (~/.lv2, or $LV2_INSTALL_DIR) and spkhost on the PATH (/usr/local/bin as root, else ~/.local/bin).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# The plugins and their window carry the Swift runtime inside (-static-stdlib), so any LV2 host
# can load them on machines without a Swift toolchain.
swift build -c release --scratch-path .build-release -Xswiftc -static-stdlib
lv2_dir=${LV2_INSTALL_DIR:-$HOME/.lv2}
scripts/stage-bundles.sh .build-release/release "$lv2_dir"
strip --strip-unneeded "$lv2_dir"/spk.lv2/spk.so "$lv2_dir"/spk.lv2/spk_ui.so
bin_dir=/usr/local/bin; [ "$(id -u)" -eq 0 ] || bin_dir=$HOME/.local/bin
mkdir -p "$bin_dir"
install -m 0755 .build-release/release/spkhost "$bin_dir/spkhost"
# spkhost bench counts run()'s allocations by preloading ordo-one's malloc interposer, which it
# looks for beside itself.
install -m 0644 .build-release/release/libMallocInterposerSwift.so "$bin_dir/libMallocInterposerSwift.so"
# The speech-dispatcher module and its configuration, where `spkhost speechd enable` finds them.
sd_dir=/usr/local/lib/speech-dispatcher-modules; [ "$(id -u)" -eq 0 ] || sd_dir=$HOME/.local/lib/speech-dispatcher-modules
mkdir -p "$sd_dir"
install -m 0755 .build-release/release/sd_spk "$sd_dir/sd_spk"
[ -f "$sd_dir/spk.conf" ] || install -m 0644 config/spk.conf "$sd_dir/spk.conf"
echo "spk is set up: spkhost in $bin_dir, LV2 bundles in $lv2_dir, sd_spk in $sd_dir (spkhost speechd enable offers its voices to speech-dispatcher)"
