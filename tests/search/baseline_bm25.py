#!/usr/bin/env python3
"""Baseline for the tool-search evaluation: rank_bm25's BM25Okapi with its
default settings, on whitespace-split, lower-cased tokens.

usage: baseline_bm25.py TASKS.json OUT.json

TASKS.json is written by `cargo run --example search_eval -- emit`; OUT.json
maps each query id to the names of its top 10 tools (tools with a score
above 0, best first, ties by name; only tools in the query's `allow` list
when it has one: a category filter).
"""
import json
import sys

from rank_bm25 import BM25Okapi


def main() -> None:
    tasks_path, out_path = sys.argv[1], sys.argv[2]
    with open(tasks_path, encoding="utf-8") as f:
        tasks = json.load(f)
    models = {}
    for catalog, docs in tasks["catalogs"].items():
        corpus = [d["text"].lower().split() for d in docs]
        models[catalog] = (BM25Okapi(corpus), [d["name"] for d in docs])
    out = {}
    for q in tasks["queries"]:
        model, names = models[q["catalog"]]
        scores = model.get_scores(q["text"].lower().split())
        order = sorted(range(len(names)), key=lambda i: (-scores[i], names[i]))
        allow = set(q["allow"]) if "allow" in q else None
        out[q["id"]] = [
            names[i]
            for i in order
            if scores[i] > 0 and (allow is None or names[i] in allow)
        ][:10]
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
