#!/usr/bin/env bash
# Records the functions the `haptics` binary runs when it starts and does its everyday jobs
# (--version, list, validate, show, play), and writes their symbols to
# Linker/startup.order, which the release link (lld's --symbol-ordering-file, see
# Package.swift) uses to place them side by side at the front of the binary. A start-up then
# faults in a few hundred kilobytes of contiguous code instead of pages scattered over 10 MB
# (each fault maps 64 KB around it), which is most of `play`'s memory beyond aplay's.
# Run it after changes that move start-up work; a stale order costs only locality (symbols
# that no longer exist are skipped).
#   ./scripts/startup-order.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
command -v valgrind >/dev/null || { echo "error: valgrind is needed (apt-get install -y valgrind)" >&2; exit 1; }
swift build -c release --static-swift-stdlib --product haptics >/dev/null
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Valgrind 3.19 cannot read the DWARF lld writes; the symbol table is all it needs.
strip --strip-debug -o "$work/haptics" "$bin/haptics"
"$work/haptics" export success -o "$work/success.ahap"
runs=(
  "--version"
  "list"
  "validate $work/success.ahap"
  "show $work/success.ahap"
  "play success --device null"
  "play light --device null"
)
# `play --device pulse` runs CPulse, the connection and the stream's start, on the sound server
# libpulse finds ($PULSE_SERVER or the user's), when one answers.
if command -v pactl >/dev/null && pactl info >/dev/null 2>&1; then
  runs+=("play success --device pulse")
else
  echo "note: no sound server answers (pactl info): play --device pulse is not recorded" >&2
fi
i=0
for run in "${runs[@]}"; do
  i=$((i + 1))
  # shellcheck disable=SC2086 # the words of a run are its arguments
  valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/calls.$i" "$work/haptics" $run >/dev/null 2>&1 ||
    { echo "error: haptics $run failed under valgrind" >&2; exit 1; }
  grep -E '^c?fn=\([0-9]+\) ' "$work/calls.$i" | sed -E 's/^c?fn=\([0-9]+\) //' | sort -u >"$work/functions.$i"
done
# Only the binary's own functions; those every run needs first, then by how many runs use them.
nm --defined-only "$work/haptics" | awk '$2 ~ /^[TtWw]$/ {print $3}' | sort -u >"$work/defined"
cat "$work"/functions.* | sort | uniq -c | awk '{print $1, $2}' | sort -k2,2 | join -1 2 -2 1 -o 1.1,1.2 - "$work/defined" |
  sort -k1,1nr -k2,2 | cut -d' ' -f2 >Linker/startup.order
echo "wrote Linker/startup.order ($(wc -l <Linker/startup.order) functions from ${#runs[@]} runs)"
