#!/usr/bin/env bash
# Installs what the tests need, checks the style (scripts/lint.sh), builds everything
# (failing on any warning in this package's own code), the static release binary and the DocC
# site, runs the whole test suite and the audio thread's allocation check.
#   ./scripts/test.sh                  everything, real-time tests last
#   ./scripts/test.sh --filter Engine  only what matches (passed to `swift test`)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-dependencies.sh"
cd "$root"
# The committed style (.swift-format): fails on any finding, before spending time on a build.
"$root/scripts/lint.sh"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# The filter shows only errors and warnings and never fails by itself; with pipefail, the
# pipeline fails exactly when the build does.
if ! swift build --build-tests 2>&1 | tee "$log" | { grep -E 'error|warning:' || true; }; then
  echo "error: the build failed; its last lines:" >&2
  tail -n 20 "$log" >&2
  exit 1
fi
if grep -E '^/.*/(Sources|Tests|Plugins|Benchmarks|Snippets)/.*: (warning|error):' "$log" | grep -v '/.build/' >/dev/null; then
  echo "error: the build has warnings or errors in this package (see above)" >&2
  exit 1
fi
# The release binary users copy (Swift runtime linked in): the distribution tests read it,
# and a running `swift test` holds the build folder's lock.
release_build() {
  if ! swift build "$@" >"$log" 2>&1; then
    tail -n 20 "$log" >&2
    echo "error: swift build $* failed" >&2
    exit 1
  fi
}
release_build -c release --static-swift-stdlib --product haptics
# The tests swift-testing's console output shows as started and never passed, failed,
# skipped or cancelled. The symbols are matched as alternatives: mawk's brackets take bytes.
unfinished_tests() {
  awk '
    /^◇ Test .* started\.$/ && !/^◇ Test (case |run )/ {
      name = $0; sub(/^◇ Test /, "", name); sub(/ started\.$/, "", name); open[name]++
    }
    /^(✔|✘|➜) Test / && !/^(✔|✘|➜) Test run / {
      name = $0; sub(/^(✔|✘|➜) Test /, "", name)
      if (sub(/ (with [0-9]+ test cases? )?(passed|failed) after .*$/, "", name) || sub(/ (was )?(cancelled|skipped).*$/, "", name)) open[name]--
    }
    END { for (name in open) if (open[name] > 0) print "  " name }' "$1"
}
# How many processes the kernel's out-of-memory killer has ended since boot (a SIGKILL,
# which no handler can report).
oom_kills() { awk '$1 == "oom_kill" { print $2 }' /proc/vmstat 2>/dev/null; }
# Runs `swift test` and, when it fails, repeats every recorded issue at the end: a CI log is
# often read from its tail, where swift-testing prints only the summary.
run_tests() {
  local output status=0 ooms_before
  output=$(mktemp)
  ooms_before=$(oom_kills)
  swift test --skip-build "$@" 2>&1 | tee "$output" || status=$?
  if [ "$status" -ne 0 ]; then
    if grep -q -E '^(✔|✘) Test run with' "$output"; then
      echo "error: swift test $* failed (exit $status); the issues it recorded:" >&2
      # Without swift-testing's leading symbols: some CI logs leave out the lines that start
      # with them (a failure then showed only the lines printed around it).
      { grep -E -A4 'recorded an issue|Caught error|fatal error|Fatal error' "$output" || tail -n 40 "$output"; } \
        | sed -E 's/^(✘|✔|◇|↳|➜|􀢄) ?/  /' >&2
    else
      # No summary: the test process died. swift test 6.3 says nothing when a signal or an
      # exit() ends it (a crash at least prints a backtrace above), so name what was running.
      echo "error: swift test $* failed (exit $status) without its summary: the test process died mid-run." >&2
      # What says why: our signal line (Tests/CTestSupport), or the Swift runtime's crash report.
      grep -E -A12 '^test process: ended by signal|\*\*\* Program crashed|Fatal error' "$output" >&2 || true
      if [ "$(oom_kills)" != "$ooms_before" ]; then
        echo "The kernel's out-of-memory killer ended a process meanwhile ($ooms_before kills before, $(oom_kills) after)." >&2
      fi
      echo "The tests that had started and not ended:" >&2
      unfinished_tests "$output" >&2
      echo "Its last lines:" >&2
      tail -n 40 "$output" | sed -E 's/^(✘|✔|◇|↳|➜|􀢄) ?/  /' >&2
    fi
  fi
  rm -f "$output"
  return "$status"
}
if [ $# -gt 0 ]; then
  run_tests "$@"
  exit
fi
# The DocC site of Haptics, CoreHaptics and HapticsFormats (scripts/docs.sh): a DocC warning
# (a broken symbol link, a missing snippet) fails CI. About 35 s after the build above.
"$root/scripts/docs.sh"
# Tests that measure timing against a sound server's clock (tagged `realtime`, see
# Tests/HapticsTestSupport/RealTime.swift) run on their own, after the rest: the rest of the
# suite keeps both cores busy, and a starved sound server inserts silence. Without
# HAPTICS_REALTIME_TESTS=1 they are skipped, so the first run is everything else.
run_tests
# `swift test --filter` matches names only (swift-testing 6.3 has no tag filter on the command
# line), so the names come from the tag: the suite or test declared after each `.tags(.realtime`.
realtime=$(awk '
  !/^[[:space:]]*\/\// && /\.tags\(\.realtime/ { tagged = 1 }
  tagged && match($0, /^[[:space:]]*(final class|class|struct|enum|actor|func) [A-Za-z_][A-Za-z0-9_]*/) {
    n = split(substr($0, RSTART, RLENGTH), words, " "); print words[n]; tagged = 0
  }' $(find Tests -name '*.swift') | sort -u | paste -sd'|')
if [ -z "$realtime" ]; then
  echo "error: no test is tagged realtime; the real-time group would not run" >&2
  exit 1
fi
# One at a time: each measures the engine against a load it controls (the low-latency test's
# two busy threads), and beside the soak test's 64 threads it once measured that instead (a
# 7.5 ms gap in CI). Serial takes no longer: the soak test's minute dominates either way.
HAPTICS_REALTIME_TESTS=1 run_tests --no-parallel --filter "$realtime"
# The audio thread never allocates: counted during a real play (0 allocations, or fail).
"$root/scripts/check-audio-allocations.sh"
