#!/usr/bin/env bash
# Installs what the tests need, builds everything (failing on any warning in this package's
# own code) and runs the whole test suite.
#   ./scripts/test.sh [extra swift test arguments]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-dependencies.sh"
cd "$root"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift build --build-tests 2>&1 | tee "$log" | grep -E 'error|warning:' || true
if grep -E '^/.*/(Sources|Tests|Plugins|Benchmarks)/.*: (warning|error):' "$log" | grep -v '/.build/' >/dev/null; then
  echo "error: the build has warnings or errors in this package (see above)" >&2
  exit 1
fi
swift test --skip-build "$@"
