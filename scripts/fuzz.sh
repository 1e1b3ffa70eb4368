#!/usr/bin/env bash
# Fuzzes the AHAP, profile, settings, .haptic, Android and web JSON readers and analyze's sound reading for longer than the test suite does, with a
# fresh seed each round, and keeps every input that crashed or hung a reader in
# Tests/FuzzCorpus/READER/, which the suite replays from then on.
#   ./scripts/fuzz.sh [ROUNDS] [SECONDS]   (default: 10 rounds of 60 s per reader)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-10}
seconds=${2:-60}
cd "$root"
swift build --build-tests >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
found=0
for round in $(seq 1 "$rounds"); do
  seed=$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')
  echo "round $round/$rounds: seed $seed, $seconds s per reader" >&2
  status=0
  HAPTICS_FUZZ_SECONDS=$seconds HAPTICS_FUZZ_SEED=$seed HAPTICS_FUZZ_CURRENT="$work/current" \
    timeout --signal=KILL $((seconds * 3 + 120)) \
    swift test --skip-build --filter 'AHAPFuzzTests|ProfileFuzzTests|SettingsFuzzTests|FormatFuzzTests|CappedFuzzTests|CoreHapticsFuzzTests|FeedbackdThemeFuzzTests|ThemeFuzzTests' >"$work/log" 2>&1 || status=$?
  if [ "$status" -eq 0 ]; then continue; fi
  if grep -q 'Test run with .* passed\|failed after' "$work/log" && ! grep -qE 'signal|Fatal error|crashed' "$work/log"; then
    # A reader answered wrongly (an assertion), not a crash: the log says which input.
    grep -E '✘' "$work/log" | head -n 5 >&2
    found=$((found + 1))
    continue
  fi
  # A crash or a hang: the last input each reader was given is the culprit's candidate.
  for current in "$work"/current.*; do
    [ -f "$current" ] || continue
    reader=${current##*.}
    name="seed-$seed-$(sha1sum "$current" | cut -c1-12)"
    mkdir -p "Tests/FuzzCorpus/$reader"
    cp "$current" "Tests/FuzzCorpus/$reader/$name"
    echo "kept Tests/FuzzCorpus/$reader/$name (status $status)" >&2
  done
  found=$((found + 1))
done
echo "$rounds rounds, $found with a problem" >&2
[ "$found" -eq 0 ]
