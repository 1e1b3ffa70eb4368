#!/usr/bin/env bash
# Builds the DocC documentation of the libraries the README teaches (Haptics, CoreHaptics,
# HapticsFormats) with swift-docc-plugin, as one site whose articles embed the compiled
# snippets of Snippets/. Any DocC warning (a broken link, a missing snippet) fails it.
#   ./scripts/docs.sh              into .build/docs (open .build/docs/index.html through a web server)
#   ./scripts/docs.sh OUTPUT       into OUTPUT
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${1:-"$root/.build/docs"}
mkdir -p "$out"
out=$(cd "$out" && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
swift package --allow-writing-to-directory "$out" generate-documentation \
  --target Haptics --target CoreHaptics --target HapticsFormats \
  --enable-experimental-combined-documentation \
  --output-path "$out" --transform-for-static-hosting --warnings-as-errors >"$log" 2>&1 || status=$?
# DocC prints its findings as "warning:"/"error:" lines; the plugin's own progress is noise.
if [ "$status" -ne 0 ] || grep -E '(warning|error):' "$log" >/dev/null; then
  grep -E -A12 '(warning|error):' "$log" >&2 || tail -n 30 "$log" >&2
  echo "error: the documentation has warnings or errors (see above)" >&2
  exit 1
fi
echo "documentation in $out"
