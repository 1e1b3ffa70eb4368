#!/usr/bin/env bash
# Installs what the tests need, builds everything (failing on any warning in this package's
# own code) and runs the whole test suite.
#   ./scripts/test.sh                  everything, real-time tests last
#   ./scripts/test.sh --filter Engine  only what matches (passed to `swift test`)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-dependencies.sh"
cd "$root"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# The filter shows only errors and warnings and never fails by itself; with pipefail, the
# pipeline fails exactly when the build does.
if ! swift build --build-tests 2>&1 | tee "$log" | { grep -E 'error|warning:' || true; }; then
  echo "error: the build failed; its last lines:" >&2
  tail -n 20 "$log" >&2
  exit 1
fi
if grep -E '^/.*/(Sources|Tests|Plugins|Benchmarks)/.*: (warning|error):' "$log" | grep -v '/.build/' >/dev/null; then
  echo "error: the build has warnings or errors in this package (see above)" >&2
  exit 1
fi
if [ $# -gt 0 ]; then
  exec swift test --skip-build "$@"
fi
# Tests that measure timing against a sound server's clock run on their own, after the rest:
# the rest of the suite keeps both cores busy, and a starved sound server inserts silence.
realtime='ALSAOutputPulseTests|PulseEngineTests|pulseIsPaced'
swift test --skip-build --skip "$realtime"
swift test --skip-build --filter "$realtime"
