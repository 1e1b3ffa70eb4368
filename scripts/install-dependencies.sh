#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages haptics needs, if any is missing:
#   libasound2-dev      ALSA headers and library (audio output)
#   libpulse-dev        PulseAudio's headers (`--device pulse` opens libpulse itself)
#   libasound2-plugins  ALSA's `pulse` device (real-time tests, desktop playback without libpulse)
#   pulseaudio, pulseaudio-utils  a null-sink sound server for tests without a sound card
#   alsa-utils          aplay/speaker-test, handy for checking a device by hand
#   libsndfile1-dev     reading WAV/FLAC/Ogg/MP3 for `haptics analyze`
#   libkissfft-dev      the FFT behind `haptics analyze`
#   libsoxr-dev         resampling Core Haptics audio resources to the output's rate (opened on first use)
#   sox                 the render benchmark's anchor (a sine synthesised to a WAV file)
#   zsh, fish           the shell completion scripts' tests run them (bash is there already)
#   sound-theme-freedesktop, libglib2.0-bin  the feedback service's sounds and GSettings tests
#   libsystemd-dev      sd-bus's headers (`haptics daemon` opens libsystemd itself)
#   dbus-daemon, dbus-bin  a private session bus for the feedback service's tests (dbus-send)
#   feedbackd, libfeedback-dev, gir1.2-lfb-0.0, python3-gi  feedbackd's daemon, fbcli and
#                       libfeedback (with GDBus from Python), the real clients the tests use
#   dpkg-dev, binutils, lintian, man-db  scripts/package-deb.sh builds, strips and checks the
#                       .deb; its test installs it and reads `man haptics-play`
# Swift 6 itself must be on PATH (https://www.swift.org/install/linux/).
set -euo pipefail
packages=(libasound2-dev libpulse-dev libasound2-plugins pulseaudio pulseaudio-utils alsa-utils libsndfile1-dev libkissfft-dev libsoxr-dev librsvg2-2 sox zsh fish sound-theme-freedesktop libglib2.0-bin libsystemd-dev dbus-daemon dbus-bin feedbackd libfeedback-dev gir1.2-lfb-0.0 python3-gi dpkg-dev binutils lintian man-db)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "error: swift is not on PATH (Swift 6 toolchain needed: https://www.swift.org/install/linux/)" >&2; exit 1; }
