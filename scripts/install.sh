#!/usr/bin/env bash
# Installs haptics: the binary (Swift runtime linked in, so it runs without a Swift
# toolchain), man pages generated from its argument definitions, bash/zsh/fish completions
# and the udev rule that lets your user drive gamepad rumble motors.
#
#   ./scripts/install.sh [PREFIX]               install (PREFIX defaults to /usr/local)
#   ./scripts/install.sh --uninstall [PREFIX]   remove exactly what an install put there
#
# PREFIX/bin/haptics, PREFIX/share/man/man1/haptics*.1,
# PREFIX/share/bash-completion/completions/haptics, PREFIX/share/zsh/site-functions/_haptics,
# PREFIX/share/fish/vendor_completions.d/haptics.fish, the feedback service's D-Bus activation
# file PREFIX/share/dbus-1/services/org.sigxcpu.Feedback.service (not over feedbackd's own: with
# PREFIX /usr it is left out when feedbackd's is there) and systemd user unit
# PREFIX/lib/systemd/user/haptics-daemon.service, and 70-haptics.rules in
# $UDEV_RULES_DIR (default /etc/udev/rules.d for the /usr and /usr/local prefixes, where udev
# reads it; PREFIX/lib/udev/rules.d otherwise). The list of installed files is kept in
# PREFIX/share/haptics/install-manifest, which --uninstall follows. HAPTICS_PREBUILT=1 skips
# the build and installs .build/release/haptics as it is.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

uninstall=false
if [ "${1:-}" = "--uninstall" ]; then uninstall=true; shift; fi
case "${1:-}" in -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
prefix=${1:-/usr/local}
prefix=${prefix%/}
manifest="$prefix/share/haptics/install-manifest"

if $uninstall; then
  [ -f "$manifest" ] || { echo "error: nothing to uninstall: $manifest not found" >&2; exit 1; }
  while IFS= read -r file; do
    [ -n "$file" ] && rm -f -- "$file" && echo "removed $file"
  done < "$manifest"
  rm -f -- "$manifest"
  rmdir --ignore-fail-on-non-empty "$prefix/share/haptics" 2>/dev/null || true
  exit 0
fi

case "$prefix" in
  /usr|/usr/local) udev_dir=${UDEV_RULES_DIR:-/etc/udev/rules.d} ;;
  *) udev_dir=${UDEV_RULES_DIR:-$prefix/lib/udev/rules.d} ;;
esac

[ "${HAPTICS_PREBUILT:-0}" = 1 ] || "$root/scripts/install-dependencies.sh"
cd "$root"
log=$(mktemp)
work=$(mktemp -d)
trap 'rm -rf "$log" "$work"' EXIT
build() {
  if ! swift build "$@" >"$log" 2>&1; then
    cat "$log" >&2
    echo "error: swift build $* failed (see above)" >&2
    exit 1
  fi
}
binary=.build/release/haptics
# HAPTICS_PREBUILT=1 installs what is already built (the test suite does, from inside a
# running `swift test`, which holds the build folder's lock).
if [ "${HAPTICS_PREBUILT:-0}" != 1 ]; then
  echo "building (release, Swift runtime linked statically)…" >&2
  build -c release --static-swift-stdlib --product haptics
fi
[ -x "$binary" ] || { echo "error: $binary is not built (run without HAPTICS_PREBUILT)" >&2; exit 1; }

mkdir -p "$work/man"
"$binary" ---manual "$work/man"
mkdir -p "$work/completions"
"$binary" --generate-completion-script bash >"$work/completions/haptics.bash"
"$binary" --generate-completion-script zsh >"$work/completions/_haptics"
"$binary" --generate-completion-script fish >"$work/completions/haptics.fish"

installed=()
put() { # put SOURCE DESTINATION MODE
  install -D -m "$3" "$1" "$2"
  installed+=("$2")
  echo "installed $2"
}
put "$binary" "$prefix/bin/haptics" 755
for page in "$work"/man/*.1; do put "$page" "$prefix/share/man/man1/$(basename "$page")" 644; done
put "$work/completions/haptics.bash" "$prefix/share/bash-completion/completions/haptics" 644
put "$work/completions/_haptics" "$prefix/share/zsh/site-functions/_haptics" 644
put "$work/completions/haptics.fish" "$prefix/share/fish/vendor_completions.d/haptics.fish" 644
put "$root/scripts/70-haptics.rules" "$udev_dir/70-haptics.rules" 644
# The feedback service (`haptics daemon`): activation on the session bus and a user unit.
for unit in org.sigxcpu.Feedback.service haptics-daemon.service; do
  sed "s|@BINDIR@|$prefix/bin|g" "$root/data/$unit.in" >"$work/$unit"
done
activation="$prefix/share/dbus-1/services/org.sigxcpu.Feedback.service"
if [ -f "$activation" ] && ! grep -q "haptics daemon" "$activation"; then
  echo "note: $activation is feedbackd's: left as it is (haptics-daemon.service takes the name with --replace)" >&2
else
  put "$work/org.sigxcpu.Feedback.service" "$activation" 644
fi
put "$work/haptics-daemon.service" "$prefix/lib/systemd/user/haptics-daemon.service" 644
mkdir -p "$(dirname "$manifest")"
printf '%s\n' "${installed[@]}" >"$manifest"

case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "note: $prefix/bin is not on your PATH" >&2 ;; esac
if [ "$udev_dir" = /etc/udev/rules.d ] && command -v udevadm >/dev/null; then
  echo "rumble: run 'sudo udevadm control --reload && sudo udevadm trigger' and reconnect the controller" >&2
fi
