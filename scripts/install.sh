#!/usr/bin/env bash
# Installs haptics: the binary (Swift runtime linked in, so it runs without a Swift
# toolchain), man pages generated from its argument definitions (man haptics-play),
# bash/zsh/fish completions, the udev rule that lets your user drive gamepad rumble motors,
# and the README, LICENSE and CHANGELOG.
#
#   ./scripts/install.sh [--prefix=PREFIX | PREFIX]              install (default /usr/local)
#   ./scripts/install.sh --uninstall [--prefix=PREFIX | PREFIX]  remove what an install put there
#   DESTDIR=/tmp/stage ./scripts/install.sh --prefix=/usr        stage for a package
#
# PREFIX/bin/haptics, PREFIX/share/man/man1/haptics*.1,
# PREFIX/share/bash-completion/completions/haptics, PREFIX/share/zsh/site-functions/_haptics,
# PREFIX/share/fish/vendor_completions.d/haptics.fish, PREFIX/share/doc/haptics/, the feedback
# service's systemd user unit PREFIX/lib/systemd/user/haptics-daemon.service and D-Bus activation
# file PREFIX/share/dbus-1/services/org.sigxcpu.Feedback.service (never under /usr, where that
# file is feedbackd's package's, nor over another one: the unit takes the name with --replace),
# and
# 70-haptics.rules in $UDEV_RULES_DIR (default /etc/udev/rules.d for the /usr and /usr/local
# prefixes, where udev reads it; PREFIX/lib/udev/rules.d otherwise). A relative PREFIX is
# taken from the current folder. The files and the folders the install created are listed,
# as they are made, in PREFIX/share/haptics/install-manifest, which --uninstall follows; an
# install that fails removes what it had put in. With DESTDIR every path is put under it and
# no manifest is written (the package manager keeps the list). HAPTICS_PREBUILT=1 skips the
# build and installs .build/release/haptics as it is; HAPTICS_BINARY=FILE installs that one.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

usage() { sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; }
fail() { echo "install.sh: $*" >&2; exit 2; }

uninstall=false
prefix=
while [ $# -gt 0 ]; do
  case "$1" in
    --uninstall) uninstall=true ;;
    -h|--help) usage; exit 0 ;;
    --prefix=*) prefix=${1#--prefix=}; [ -n "$prefix" ] || fail "--prefix needs a folder" ;;
    --prefix) [ $# -ge 2 ] || fail "--prefix needs a folder"; prefix=$2; shift ;;
    -*) fail "unknown option '$1' (see install.sh --help)" ;;
    *) [ -z "$prefix" ] || fail "one prefix only: '$prefix' and '$1'"; prefix=$1 ;;
  esac
  shift
done
prefix=${prefix:-/usr/local}
# Relative to where the user stands, not to the repository the script cds into.
case "$prefix" in /*) ;; *) prefix="$PWD/$prefix" ;; esac
[ "$prefix" = / ] || prefix=${prefix%/}
destdir=${DESTDIR:-}
destdir=${destdir%/}
manifest="$prefix/share/haptics/install-manifest"

if $uninstall; then
  [ -z "$destdir" ] || fail "--uninstall with DESTDIR: remove the staging folder instead"
  [ -f "$manifest" ] || { echo "install.sh: nothing to uninstall: $manifest not found" >&2; exit 1; }
  # Files first, then the folders the install created, deepest first, if nothing else is in them.
  folders=()
  while IFS= read -r entry; do
    case "$entry" in
      '') ;;
      */) folders+=("${entry%/}") ;;
      *) rm -f -- "$entry" && echo "removed $entry" ;;
    esac
  done <"$manifest"
  rm -f -- "$manifest"
  for ((i = ${#folders[@]} - 1; i >= 0; i--)); do
    rmdir -- "${folders[$i]}" 2>/dev/null && echo "removed ${folders[$i]}/" || true
  done
  rmdir -- "$prefix/share/haptics" 2>/dev/null || true
  exit 0
fi

case "$prefix" in
  /usr|/usr/local) udev_dir=${UDEV_RULES_DIR:-/etc/udev/rules.d} ;;
  *) udev_dir=${UDEV_RULES_DIR:-$prefix/lib/udev/rules.d} ;;
esac

# Data files beyond the binary's own, each "SOURCE DESTINATION MODE", the destination under
# PREFIX, the source in the repository; @BINDIR@ in a file ending .in becomes PREFIX/bin (and
# the .in is dropped from its name). scripts/package-deb.sh installs the same list.
# The feedback service's D-Bus activation file and systemd user unit (issue #25) go here:
#   e.g. "scripts/org.sigxcpu.Feedback.service.in share/dbus-1/services/org.sigxcpu.Feedback.service.in 644"
#        "scripts/haptics-daemon.service.in lib/systemd/user/haptics-daemon.service.in 644"
extra_files=(
  "README.md share/doc/haptics/README.md 644"
  "LICENSE share/doc/haptics/LICENSE 644"
  "CHANGELOG.md share/doc/haptics/CHANGELOG.md 644"
  "data/haptics-daemon.service.in lib/systemd/user/haptics-daemon.service.in 644"
  "data/org.sigxcpu.Feedback.service.in share/dbus-1/services/org.sigxcpu.Feedback.service.in 644"
)

binary=${HAPTICS_BINARY:-}
if [ -n "$binary" ]; then
  HAPTICS_PREBUILT=1
  case "$binary" in /*) ;; *) binary="$PWD/$binary" ;; esac
fi
[ "${HAPTICS_PREBUILT:-0}" = 1 ] || "$root/scripts/install-dependencies.sh"
cd "$root"
log=$(mktemp)
work=$(mktemp -d)
installed=() # what this run made: files that were not there, and folders, outermost first
finished=false
# An install that stops part-way (a failed step, Ctrl-C) takes back the files and folders it
# made, and puts back the manifest of an earlier install.
cleanup() {
  if ! $finished && [ ${#installed[@]} -gt 0 ]; then
    echo "install.sh: install failed; removing what it had installed" >&2
    [ -n "$destdir" ] || rm -f -- "$manifest"
    for ((i = ${#installed[@]} - 1; i >= 0; i--)); do
      entry=${installed[$i]}
      case "$entry" in */) rmdir -- "$destdir${entry%/}" 2>/dev/null || true ;; *) rm -f -- "$destdir$entry" ;; esac
    done
    if [ -z "$destdir" ] && [ -f "$work/previous-manifest" ]; then
      mkdir -p "$(dirname "$manifest")" && cp "$work/previous-manifest" "$manifest"
    fi
  fi
  rm -rf "$log" "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
build() {
  if ! swift build "$@" >"$log" 2>&1; then
    cat "$log" >&2
    echo "install.sh: swift build $* failed (see above)" >&2
    exit 1
  fi
}
binary=${binary:-.build/release/haptics}
# HAPTICS_PREBUILT=1 installs what is already built (the test suite does, from inside a
# running `swift test`, which holds the build folder's lock).
if [ "${HAPTICS_PREBUILT:-0}" != 1 ]; then
  echo "building (release, Swift runtime linked statically)…" >&2
  build -c release --static-swift-stdlib --product haptics
fi
[ -x "$binary" ] || { echo "install.sh: $binary is not built (run without HAPTICS_PREBUILT)" >&2; exit 1; }

mkdir -p "$work/man"
"$binary" ---manual "$work/man"
mkdir -p "$work/completions"
"$binary" --generate-completion-script bash >"$work/completions/haptics.bash"
"$binary" --generate-completion-script zsh >"$work/completions/_haptics"
"$binary" --generate-completion-script fish >"$work/completions/haptics.fish"

# Records an entry in the manifest at once, so that an install killed outright can still be
# uninstalled; and, when this run made it, in memory for a rollback.
record() { # record ENTRY made-by-this-run
  [ "$2" = false ] || installed+=("$1")
  if [ -z "$destdir" ] && [ -f "$manifest" ]; then
    grep -qxF -- "$1" "$manifest" 2>/dev/null || printf '%s\n' "$1" >>"$manifest"
  fi
}
# The folders above FOLDER that do not exist yet, outermost first, are made and recorded.
make_folders() {
  local folder=$1 missing=()
  while [ "$folder" != / ] && [ ! -d "$destdir$folder" ]; do missing=("$folder" "${missing[@]}"); folder=$(dirname "$folder"); done
  for folder in "${missing[@]}"; do
    mkdir -- "$destdir$folder"
    record "$folder/" true
  done
}
put() { # put SOURCE DESTINATION MODE
  local new=true
  [ ! -e "$destdir$2" ] || new=false
  make_folders "$(dirname "$2")"
  install -m "$3" "$1" "$destdir$2"
  record "$2" "$new"
  echo "installed $destdir$2"
}

[ -z "$destdir" ] || mkdir -p -- "$destdir"
if [ -z "$destdir" ]; then
  # An earlier install's manifest is kept and added to: --uninstall removes what either made.
  [ ! -f "$manifest" ] || cp "$manifest" "$work/previous-manifest"
  make_folders "$(dirname "$manifest")"
  touch "$manifest"
  # The folders made before the manifest's own folder existed.
  for entry in "${installed[@]}"; do grep -qxF -- "$entry" "$manifest" || printf '%s\n' "$entry" >>"$manifest"; done
fi
put "$binary" "$prefix/bin/haptics" 755
for page in "$work"/man/*.1; do put "$page" "$prefix/share/man/man1/$(basename "$page")" 644; done
put "$work/completions/haptics.bash" "$prefix/share/bash-completion/completions/haptics" 644
put "$work/completions/_haptics" "$prefix/share/zsh/site-functions/_haptics" 644
put "$work/completions/haptics.fish" "$prefix/share/fish/vendor_completions.d/haptics.fish" 644
put "$root/scripts/70-haptics.rules" "$udev_dir/70-haptics.rules" 644
for line in "${extra_files[@]}"; do
  read -r source destination mode <<<"$line"
  if [ "$destination" = share/dbus-1/services/org.sigxcpu.Feedback.service.in ]; then
    activation="$destdir$prefix/${destination%.in}"
    if [ "$prefix" = /usr ] || { [ -f "$activation" ] && ! grep -q "haptics daemon" "$activation"; }; then
      echo "note: $prefix/${destination%.in} is feedbackd's: not installed (haptics-daemon.service takes the name with --replace)" >&2
      continue
    fi
  fi
  case "$source" in
    *.in)
      sed "s|@BINDIR@|$prefix/bin|g" "$root/$source" >"$work/$(basename "${source%.in}")"
      put "$work/$(basename "${source%.in}")" "$prefix/${destination%.in}" "$mode"
      ;;
    *) put "$root/$source" "$prefix/$destination" "$mode" ;;
  esac
done
finished=true

if [ -z "$destdir" ]; then
  case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "note: $prefix/bin is not on your PATH" >&2 ;; esac
  if [ "$udev_dir" = /etc/udev/rules.d ] && command -v udevadm >/dev/null; then
    echo "rumble: run 'sudo udevadm control --reload && sudo udevadm trigger' and reconnect the controller" >&2
  fi
fi
