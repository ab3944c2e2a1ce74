#!/usr/bin/env bash
# Runs every fuzz target under libFuzzer (needs nightly and cargo-fuzz).
#
#   fuzz/run.sh 5                 each target for 5 seconds (make test)
#   fuzz/run.sh 120               each target for 2 minutes
#   fuzz/run.sh --runs 10000000   each target for 10 million executions
#   fuzz/run.sh 60 engine http    only these targets
#
# FUZZ_SANITIZER=none runs without the address sanitizer: 2-3 times the
# executions per second (the crate has no unsafe code; the sanitizer
# watches the dependencies'), but a timed-out input may hang libFuzzer's
# timeout handler instead of being written out: a run that stops counting
# is a timeout. The long runs use it; the default is address.
#
# The long runs (--runs) cap inputs at 4096 bytes (-max_len=4096,
# libFuzzer's own default when no seed is longer): seeds past it (html's
# whole pages, search's catalogs with a query) are read cut there, and
# mutations stay small enough for millions of executions. The timed runs
# (make test) let libFuzzer take the longest seed as the limit, and the
# tests run every seed whole. FUZZ_MAX_LEN=n changes the cap.
#
# Every input is capped at 2 GiB of memory and 10 s. A crash, timeout or
# out-of-memory stops the run with its input in fuzz/artifacts/<target>/;
# copy it to fuzz/regressions/<target>/ once fixed. Executions per target
# are printed at the end (and written to fuzz/artifacts/summary.txt).
set -euo pipefail
cd "$(dirname "$0")"

limit=(-max_total_time="${1:-5}")
if [ "${1:-}" = "--runs" ]; then
  limit=(-runs="$2" -max_len="${FUZZ_MAX_LEN:-4096}")
  shift 2
else
  shift || true
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(catalog lint calls validate search entities engine http sse lenient rawjson html conversation upstream connections)

node seed.mjs
mkdir -p artifacts
summary=artifacts/summary.txt
: > "$summary"
# one build for every target, with the sanitizer (address unless told
# otherwise: its allocator lets libFuzzer write a timed-out input reliably,
# and it watches the unsafe code of the dependencies) and debug assertions
# (overflow checks)
sanitizer="${FUZZ_SANITIZER:-address}"
cargo +nightly fuzz build --debug-assertions -s "$sanitizer" >/dev/null
for t in "${targets[@]}"; do
  mkdir -p "artifacts/$t"
  log="artifacts/$t.log"
  status=0
  cargo +nightly fuzz run --debug-assertions -s "$sanitizer" "$t" "corpus/$t" -- \
    "${limit[@]}" -rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=10 \
    -artifact_prefix="artifacts/$t/" -print_final_stats=1 >"$log" 2>&1 || status=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  line="$t: ${execs:-?} executions, exit $status"
  echo "$line" | tee -a "$summary"
  if [ "$status" -ne 0 ]; then
    tail -40 "$log"
    echo "fuzz target $t failed: see fuzz/$log and fuzz/artifacts/$t/" >&2
    exit 1
  fi
done
