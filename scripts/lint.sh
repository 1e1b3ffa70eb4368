#!/usr/bin/env bash
# Checks the Swift sources against the committed style (.swift-format) with `swift format`,
# which ships with the toolchain; fails on any finding.
#   ./scripts/lint.sh          check
#   ./scripts/lint.sh --fix    rewrite the files in the committed style
# Left out on purpose: Snippets/ (the README quotes them verbatim, laid out for reading) and
# Tests/CoreHapticsTests/Snippets/ (other projects' Core Haptics code, compiled unchanged).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mapfile -t files < <(git ls-files --cached --others --exclude-standard '*.swift' \
  | grep -v -E '^(Snippets/|Tests/CoreHapticsTests/Snippets/)')
if [ "${1:-}" = "--fix" ]; then
  swift format format --in-place --parallel "${files[@]}"
else
  swift format lint --strict --parallel "${files[@]}"
fi
