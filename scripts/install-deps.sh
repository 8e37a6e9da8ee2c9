#!/usr/bin/env bash
# Installs the Debian 12 packages spk builds against and tests with. Run as root (or via sudo).
set -euo pipefail
packages=(
    pkg-config
    gcc binutils                                  # cc for scripts/check-sherpa-abi.sh, strip for setup.sh
    liblilv-dev lv2-dev lilv-utils sordi          # LV2 hosting, headers, lv2info/lv2_validate
    libespeak-ng-dev espeak-ng-data               # the espeak-ng engine and its voices
    flite1-dev libsonic-dev                       # the flite engine; tempo and pitch where flite has none
    libsndfile1-dev libsoxr-dev                    # audio files, resampling
    libxml2-dev                                   # the SSML parser
    libjack-jackd2-dev jackd2 jalv                # JACK, and a third-party LV2 host for tests
    jack-capture                                  # the tests record what play/live/jalv send into JACK
    sox                                           # measuring and looking at rendered audio
    python3-pip                                   # spkhost voice install fetches neural voices with pip
    python3                                       # /usr/bin/python3 (python3.11-minimal): the tests' helper scripts and speech-dispatcher's client
    swh-lv2                                       # LV2 effects for render graphs (EQ, compressor, reverb, limiter; 2 MB, no deps)
    fomp                                          # LV2 plugins, one needing lv2:isLive (the graph tests' missing-feature case)
    libx11-dev libcairo2-dev libpango1.0-dev      # the plugin window: Xlib, cairo and pango, no toolkit
    xvfb xdotool x11-utils imagemagick xclip      # the window's tests: a headless X server, typing and clicking, screenshots, a clipboard
    libqt5x11extras5                              # jalv.qt5 embeds X11 plugin UIs only with it (a Recommends of jalv)
    speech-dispatcher python3-speechd info        # sd_spk's host, its Python client, the module protocol's manual
    speech-dispatcher-espeak-ng                   # speech-dispatcher's own espeak-ng module: the benchmark's peer
    ardour                                        # a DAW as a host nobody here wrote, headless through ardour7-lua
)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    # jackd2 asks whether to enable real-time priorities: answer before it asks.
    echo "jackd2 jackd/tweak_rt_limits boolean false" | $sudo debconf-set-selections
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    echo "installed: ${missing[*]}"
fi
command -v swift >/dev/null || { echo "install-deps: swift is not on PATH (Swift 6.x is required)" >&2; exit 1; }
