#!/usr/bin/env bash
# Counts heap calls made on the audio thread while `haptics play` runs, as evidence for the
# rule that the real-time thread never allocates. A control run counts the main thread's, to
# show the counter works. Fails (exit 1) when the audio thread allocated or the control
# counted nothing.
#   ./scripts/check-audio-allocations.sh [pattern] [play options…]   (default: a looped preset on `null`)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# The same flags as the other release builds, so this reuses them instead of relinking.
swift build -c release --static-swift-stdlib --product haptics >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
library=$work/count_allocations.so
gcc -shared -fPIC -O2 -o "$library" Benchmarks/AllocationCheck/count_allocations.c -ldl
args=("$@")
defaults=false
[ ${#args[@]} -eq 0 ] && { defaults=true; args=(levelChange --device null --loop 200); }
count() { # count THREAD: the allocations that thread made while playing
  COUNT_THREAD=$1 LD_PRELOAD="$library" .build/release/haptics play "${args[@]}" >/dev/null 2>"$work/$1.txt" || true
  cat "$work/$1.txt" >&2
  sed -n "s/^thread '$1': \([0-9]*\) allocations.*/\1/p" "$work/$1.txt" | tail -n 1
}
echo "audio thread:" >&2
audio=$(count haptics-audio)
echo "control (the thread still named 'haptics': main):" >&2
control=$(count haptics)
if [ -z "$audio" ] || [ -z "$control" ] || [ "$control" -eq 0 ]; then
  echo "error: the allocation counter did not count (audio '$audio', control '$control')" >&2
  exit 1
fi
if [ "$audio" -ne 0 ]; then
  echo "error: the audio thread allocated $audio times" >&2
  exit 1
fi
echo "audio thread: 0 allocations (control: $control)"
if $defaults; then
  # Audio events too: a tone with a pitch curve and a looping sound file (any WAV will do: a
  # render of a preset), beside haptics.
  .build/release/haptics render success -o "$work/tap.wav" >/dev/null
  cat > "$work/audio.ahap" <<'AHAP'
{ "Pattern": [
  { "Event": { "Time": 0, "EventType": "HapticContinuous", "EventDuration": 0.3 } },
  { "Event": { "Time": 0, "EventType": "AudioContinuous", "EventDuration": 0.3,
               "EventParameters": [ { "ParameterID": "AudioBrightness", "ParameterValue": 0.5 } ] } },
  { "Event": { "Time": 0.05, "EventType": "AudioCustom", "EventWaveformPath": "tap.wav",
               "EventDuration": 0.25, "EventWaveformLoopEnabled": true,
               "EventParameters": [ { "ParameterID": "AudioBrightness", "ParameterValue": 0.3 } ] } },
  { "ParameterCurve": { "ParameterID": "AudioPitchControl", "Time": 0,
                        "ParameterCurveControlPoints": [ { "Time": 0, "ParameterValue": 0 },
                                                         { "Time": 0.3, "ParameterValue": 0.5 } ] } } ] }
AHAP
  args=("$work/audio.ahap" --device null --loop 200)
  echo "audio thread, with audio events:" >&2
  audio=$(count haptics-audio)
  if [ -z "$audio" ] || [ "$audio" -ne 0 ]; then
    echo "error: the audio thread allocated '$audio' times playing audio events" >&2
    exit 1
  fi
  echo "audio thread with audio events: 0 allocations"
fi
