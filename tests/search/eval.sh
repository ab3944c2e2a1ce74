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

# baselines' tools: rank_bm25 in the project's .venv, MiniSearch in a
# private prefix (package.json and the lockfile are not touched)
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -c 'import rank_bm25' 2>/dev/null ||
  .venv/bin/pip install -q --disable-pip-version-check rank_bm25==0.2.2
[ -d "$OUT/node/node_modules/minisearch" ] ||
  npm install --no-save --no-audit --no-fund --silent --prefix "$OUT/node" minisearch@7.2.0

cargo build -q --release --example search_eval
./target/release/examples/search_eval emit "$OUT/tasks.json"
.venv/bin/python tests/search/baseline_bm25.py "$OUT/tasks.json" "$OUT/bm25.json"
MINISEARCH_PREFIX="$OUT/node" node tests/search/baseline_minisearch.mjs "$OUT/tasks.json" "$OUT/minisearch.json"
./target/release/examples/search_eval report "$OUT" "$@"
