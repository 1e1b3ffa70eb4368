#!/usr/bin/env bash
# Counts heap calls made on the audio thread while `haptics play` runs, as evidence for the
# rule that the real-time thread never allocates. A control run counts the main thread's.
#   ./scripts/check-audio-allocations.sh [pattern] [play options…]   (default: a looped preset on `null`)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
swift build -c release --product haptics >/dev/null
library=$(mktemp -d)/count_allocations.so
gcc -shared -fPIC -O2 -o "$library" Benchmarks/AllocationCheck/count_allocations.c -ldl
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(levelChange --device null --loop 200)
echo "audio thread:" >&2
COUNT_THREAD=haptics-audio LD_PRELOAD="$library" .build/release/haptics play "${args[@]}" >/dev/null
echo "control (threads still named 'haptics': main, notification):" >&2
COUNT_THREAD=haptics LD_PRELOAD="$library" .build/release/haptics play "${args[@]}" >/dev/null
