#!/usr/bin/env bash
# Counts heap calls made on the audio thread while `haptics play` runs, as evidence for the
# rule that the real-time thread never allocates. A control run counts the main thread's, to
# show the counter works. Fails (exit 1) when the audio thread allocated or the control
# counted nothing. Without arguments it plays on `null`, then through libpulse (`--device
# pulse`) into a private PulseAudio null sink (skipped, with a message, without pulseaudio).
#   ./scripts/check-audio-allocations.sh [pattern] [play options…]   (default: a looped preset on `null`, then on pulse)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# The same flags as the other release builds, so this reuses them instead of relinking.
swift build -c release --static-swift-stdlib --product haptics >/dev/null
work=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
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
  # Through libpulse into a private server's null sink, as the real-time tests play: libpulse
  # runs on the audio thread there (its main loop), so its heap calls would be the thread's.
  if ! command -v pulseaudio >/dev/null || ! command -v pactl >/dev/null; then
    echo "pulse: skipped (pulseaudio or pactl is not installed; Debian: pulseaudio, pulseaudio-utils)"
    exit 0
  fi
  mkdir -p "$work/pulse/state"
  export PULSE_RUNTIME_PATH=$work/pulse PULSE_STATE_PATH=$work/pulse/state PULSE_SERVER=unix:$work/pulse/native
  pulseaudio --daemonize=no -n --use-pid-file=no --exit-idle-time=-1 --disallow-exit --log-target=stderr \
    --realtime=yes --high-priority=yes \
    "--load=module-null-sink sink_name=allocations rate=48000 channels=2 format=float32le norewinds=1" \
    "--load=module-native-protocol-unix socket=$work/pulse/native auth-anonymous=1" 2>"$work/pulse/log" &
  server=$!
  for _ in $(seq 100); do pactl info >/dev/null 2>&1 && break; sleep 0.1; done # polling: the server has no readiness signal
  pactl info >/dev/null 2>&1 || { echo "error: the private pulseaudio did not start: $(tail -n 3 "$work/pulse/log")" >&2; exit 1; }
  # 4 s: the stream's start, a steady state, and the stop.
  args=(levelChange --device pulse --loop 8)
  echo "audio thread, on pulse:" >&2
  audio=$(count haptics-audio)
  if [ -z "$audio" ] || [ "$audio" -ne 0 ]; then
    echo "error: the audio thread allocated '$audio' times playing through libpulse" >&2
    exit 1
  fi
  echo "audio thread on pulse: 0 allocations"
fi
