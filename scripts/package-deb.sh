#!/usr/bin/env bash
# Builds the Debian package and the release tarball of haptics, with the files
# scripts/install.sh installs (its list, extra data files included), for prefix /usr:
#
#   ./scripts/package-deb.sh [OUTPUT-FOLDER]     (default .build/package)
#
# writes OUTPUT-FOLDER/haptics_VERSION_ARCH.deb (the stripped static binary, man pages,
# completions, the udev rule in /usr/lib/udev/rules.d, the README and changelog, the copyright
# file) and OUTPUT-FOLDER/haptics-VERSION-linux-ARCH.tar.gz (the same tree under
# haptics-VERSION/, to unpack into a prefix), then checks the .deb with lintian when it is
# installed (it needs no override: fail on any warning). VERSION is
# HapticsVersion.current. HAPTICS_PREBUILT=1 packages .build/release/haptics as it is;
# HAPTICS_MAINTAINER sets the Maintainer field.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
output=${1:-$root/.build/package}
case "$output" in /*) ;; *) output="$PWD/$output" ;; esac

version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' "$root/Sources/Haptics/HapticsVersion.swift")
[ -n "$version" ] || { echo "package-deb.sh: no version in Sources/Haptics/HapticsVersion.swift" >&2; exit 1; }
arch=$(dpkg --print-architecture)
maintainer=${HAPTICS_MAINTAINER:-haptics maintainers <haptics@users.noreply.example.org>}
for tool in dpkg-deb dpkg-shlibdeps strip gzip; do
  command -v "$tool" >/dev/null || { echo "package-deb.sh: $tool is not installed (apt-get install dpkg-dev binutils)" >&2; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "${HAPTICS_PREBUILT:-0}" != 1 ]; then
  echo "building (release, Swift runtime linked statically)…" >&2
  (cd "$root" && swift build -c release --static-swift-stdlib --product haptics >"$work/build.log" 2>&1) \
    || { cat "$work/build.log" >&2; echo "package-deb.sh: swift build failed (see above)" >&2; exit 1; }
fi

stage="$work/haptics_${version}_$arch"
DESTDIR=$stage UDEV_RULES_DIR=/usr/lib/udev/rules.d HAPTICS_PREBUILT=1 \
  "$root/scripts/install.sh" --prefix=/usr >/dev/null
doc="$stage/usr/share/doc/haptics"
# Debian's layout: the license in copyright (common-licenses has Apache-2.0's text), man
# pages and changelogs compressed, a changelog in Debian's format beside the project's.
rm -f "$doc/LICENSE"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/haptics"
gzip -9n "$stage"/usr/share/man/man1/*.1
gzip -9n "$doc/CHANGELOG.md"
cat >"$doc/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: haptics
Comment: The Swift runtime and standard library linked into the binary are
 Apache-2.0 with the Runtime Library Exception; libstdc++, linked in where its
 static archive is installed, is GPL-3+ with the GCC Runtime Library Exception.

Files: *
Copyright: 2026 The haptics authors
License: Apache-2.0

License: Apache-2.0
 Licensed under the Apache License, Version 2.0 (the "License"); you may not
 use this file except in compliance with the License. You may obtain a copy of
 the License at https://www.apache.org/licenses/LICENSE-2.0
 .
 Unless required by applicable law or agreed to in writing, software
 distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
 WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
 License for the specific language governing permissions and limitations under
 the License.
 .
 On Debian systems, the full text of the Apache License, Version 2.0 can be
 found in "/usr/share/common-licenses/Apache-2.0".
EOF
date=$(date -R -d "@$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)")
printf 'haptics (%s) unstable; urgency=medium\n\n  * Release %s: see CHANGELOG.md.gz beside this file.\n\n -- %s  %s\n' \
  "$version" "$version" "$maintainer" "$date" | gzip -9n >"$doc/changelog.gz"

# The release tarball: the same files (less the Debian-only ones), under haptics-VERSION/.
tarball="$work/haptics-$version"
cp -a "$stage/usr" "$tarball"
rm -rf "$tarball/share/doc/haptics/changelog.gz" "$tarball/share/doc/haptics/copyright"
install -m 644 "$root/LICENSE" "$tarball/share/doc/haptics/LICENSE"

# Shared libraries the binary links (libc, libm) and their versions, from the
# system's symbols files; alsa-lib, libpulse and libsndfile are opened only when used.
mkdir -p "$work/shlibs/debian"
printf 'Source: haptics\n\nPackage: haptics\nArchitecture: any\n' >"$work/shlibs/debian/control"
depends=$(cd "$work/shlibs" && dpkg-shlibdeps -O "$stage/usr/bin/haptics" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
# Packed relative relocations (Package.swift) need glibc 2.36, which the symbols do not say.
if readelf -d "$stage/usr/bin/haptics" | grep -q RELR; then
  depends=$(echo "$depends" | sed 's/libc6 (>= [0-9.]*)/libc6 (>= 2.36)/')
fi
alsa=$( (dpkg-query -W -f='${Package}\n' 'libasound2t64' 'libasound2' 2>/dev/null || true) | head -n 1)
mkdir -p "$stage/DEBIAN"
cat >"$stage/DEBIAN/control" <<EOF
Package: haptics
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: $depends
Recommends: ${alsa:-libasound2}, libsndfile1, libkissfft-float131
Suggests: pulseaudio | pipewire-pulse
Section: sound
Priority: optional
Description: author, render and play haptic patterns
 haptics brings Apple's Core Haptics model to Linux: patterns of transient taps
 and continuous vibrations with intensity and sharpness, stored as AHAP files,
 played in real time on ALSA and PulseAudio outputs (voice coils, LRAs, the
 DualSense's audio haptics, bass shakers) and on gamepads' rumble motors
 through evdev force feedback, or rendered to WAV for tests.
 .
 The haptics command plays, renders, validates, converts, analyses and plots
 patterns; man haptics lists its commands.
EOF
(cd "$stage" && find usr -type f -print0 | sort -z | xargs -0 md5sum >DEBIAN/md5sums)
chmod 644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"
find "$stage" -type d -exec chmod 755 {} +

mkdir -p "$output"
deb="$output/haptics_${version}_$arch.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
tar --owner=0 --group=0 --numeric-owner --sort=name -C "$work" -czf "$output/haptics-$version-linux-$arch.tar.gz" "haptics-$version"
echo "$deb"
echo "$output/haptics-$version-linux-$arch.tar.gz"
if command -v lintian >/dev/null; then
  lintian --allow-root --fail-on error,warning "$deb" >&2
else
  echo "note: lintian is not installed, so the package was not checked (apt-get install lintian)" >&2
fi
