#!/usr/bin/env bash
# Tool-search evaluation, one command: bash tests/search/eval.sh [--failures]
#
# Scores the crate's ToolIndex against three baselines run on the same
# queries and documents: substring match (the original design), rank_bm25's
# BM25Okapi (PyPI) and MiniSearch (npm), all with default settings. Data:
# ../shared/corpus (or $CORPUS) and the query sets in tests/search/*.json.
# Output: a Markdown table on stdout and in target/search-eval/report.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=target/search-eval
mkdir -p "$OUT"

# the baselines come from the project's own dependency files: rank_bm25 in
# .venv (tests/py/requirements.txt), MiniSearch in node_modules (package.json);
# `make tools` installs both
[ -x .venv/bin/python ] && .venv/bin/python -c 'import rank_bm25' 2>/dev/null ||
  { echo "run 'make tools' first (rank_bm25 missing from .venv)" >&2; exit 2; }
[ -d node_modules/minisearch ] || { echo "run 'make tools' first (minisearch missing)" >&2; exit 2; }

cargo build -q --release --example search_eval
./target/release/examples/search_eval emit "$OUT/tasks.json"
.venv/bin/python tests/search/baseline_bm25.py "$OUT/tasks.json" "$OUT/bm25.json"
node tests/search/baseline_minisearch.mjs "$OUT/tasks.json" "$OUT/minisearch.json"
./target/release/examples/search_eval report "$OUT" "$@"
