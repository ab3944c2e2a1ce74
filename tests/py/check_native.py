#!/usr/bin/env python3
"""Validates the native disclosure (`convert --disclosure native`) against the
vendors' Python SDK types and the rules the APIs enforce for deferred tools.

Run from the repository root, after building pkg/ (`node js/build.mjs`):

    .venv/bin/python tests/py/check_native.py [-v]

For every catalog check_dialects.py reads (the corpus `*.tools-list.json`
files, the schema edge cases, the Home Assistant fragment, js/examples) it
converts to Anthropic (our search, the API's BM25 and regex searches, strict
and not) and to OpenAI Responses (our search as the client search, the hosted
one), and checks:

* every tool validates, strictly, as the SDK's request type: Anthropic
  `ToolUnionParam` (custom tools and the tool-search tools), OpenAI Responses
  `ToolParam` (functions, `namespace`, `tool_search`), with no key the type
  does not declare;
* a tool of the catalog is never deferred (Anthropic refuses a request whose
  tools are all deferred), and the search tool is not either;
* every deferred tool's name is one a `tool_reference` can carry (at most 64
  characters) and maps back to a tool of the catalog; a tool_result of
  `tool_reference` blocks naming every deferred tool validates as the SDK's
  `ToolResultBlockParam`, and a client `tool_search_output` loading every
  namespace as `ResponseToolSearchOutputItemParamParam`;
* no namespace holds ten functions or more, and every member is deferred;
* every converted tool is sent, deferred or loaded, and the report says,
  once per tool, which and why.

Each rule check is first shown to fire on a known-bad output.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from pydantic import TypeAdapter, ValidationError

sys.path.insert(0, os.path.dirname(__file__))
from check_dialects import CLI, ROOT, load_catalogs, typed_dict_keys  # noqa: E402

NAME64 = __import__("re").compile(r"^[a-zA-Z0-9_-]{1,64}$")
RUNS = [
    ("anthropic", ["--search-with", "ours"]),
    ("anthropic", ["--search-with", "provider"]),
    ("anthropic", ["--search-with", "provider", "--provider-search", "regex", "--strict"]),
    ("openai-responses", ["--search-with", "ours"]),
    ("openai-responses", ["--search-with", "provider", "--strict"]),
]


class Sdk:
    @classmethod
    def load(cls) -> None:
        from anthropic.types import ToolParam, ToolResultBlockParam, ToolUnionParam
        from anthropic.types import ToolSearchToolBm25_20251119Param as Bm25
        from anthropic.types import ToolSearchToolRegex20251119Param as Regex
        from openai.types.responses import NamespaceToolParam, ToolParam as ResponsesTool, ToolSearchToolParam
        from openai.types.responses import FunctionToolParam
        from openai.types.responses.namespace_tool_param import ToolFunction
        from anthropic.types.tool_result_block_param import Content as ResultContent
        from openai.types.responses.response_tool_search_output_item_param_param import (
            ResponseToolSearchOutputItemParamParam as SearchOutput,
            Tool as LoadedTool,
        )

        cls.anthropic_tool = TypeAdapter(ToolUnionParam)
        cls.tool_result = TypeAdapter(ToolResultBlockParam)
        cls.anthropic_keys = {"custom": typed_dict_keys(ToolParam), "bm25": typed_dict_keys(Bm25),
                              "regex": typed_dict_keys(Regex)}
        cls.responses_tool = TypeAdapter(ResponsesTool)
        cls.search_output = TypeAdapter(SearchOutput)
        # pydantic validates an Iterable lazily: a namespace's members are validated one by one
        cls.member = TypeAdapter(ToolFunction)
        cls.result_content = TypeAdapter(ResultContent)
        cls.loaded_tool = TypeAdapter(LoadedTool)
        cls.responses_keys = {"function": typed_dict_keys(FunctionToolParam),
                              "namespace": typed_dict_keys(NamespaceToolParam),
                              "tool_search": typed_dict_keys(ToolSearchToolParam),
                              "member": typed_dict_keys(ToolFunction)}


def sdk_error(e: ValidationError) -> str:
    return "; ".join(f"{'/'.join(map(str, x['loc']))}: {x['msg']}" for x in e.errors()[:3])


def check(dialect: str, out: dict, catalog_names: set[str]) -> list[str]:
    """The problems of one native conversion (empty when none)."""
    problems: list[str] = []
    tools = out.get("tools")
    names = out.get("names") or {}
    if not isinstance(tools, list) or not tools:
        return ["no tools"]
    mcp = lambda n: names.get(n, n) if isinstance(names, dict) else n  # noqa: E731
    deferred: list[str] = []
    kept: list[str] = []
    if dialect == "anthropic":
        for i, t in enumerate(tools):
            try:
                Sdk.anthropic_tool.validate_python(t, strict=True)
            except ValidationError as e:
                problems.append(f"/tools/{i}: ToolUnionParam rejects it: {sdk_error(e)}")
            kind = str(t.get("type", "custom"))
            keys = Sdk.anthropic_keys["bm25" if "bm25" in kind else "regex" if "regex" in kind else "custom"]
            problems += [f"/tools/{i}/{k}: unknown key" for k in sorted(set(t) - keys)]
            if "input_schema" not in t:
                continue  # the API's search tool
            (deferred if t.get("defer_loading") is True else kept).append(t.get("name"))
        refs = {"type": "tool_result", "tool_use_id": "toolu_1",
                "content": [{"type": "tool_reference", "tool_name": n} for n in deferred]}
        for block in [refs, *refs["content"]]:
            try:
                (Sdk.tool_result if block is refs else Sdk.result_content).validate_python(block, strict=True)
            except ValidationError as e:
                problems.append(f"a tool_result of tool_reference blocks: {sdk_error(e)}")
    else:
        loaded = []
        for i, t in enumerate(tools):
            try:
                Sdk.responses_tool.validate_python(t, strict=True)
            except ValidationError as e:
                problems.append(f"/tools/{i}: responses ToolParam rejects it: {sdk_error(e)}")
            kind = t.get("type")
            problems += [f"/tools/{i}/{k}: unknown key" for k in sorted(set(t) - Sdk.responses_keys.get(kind, set()))]
            if kind == "tool_search":
                if t.get("defer_loading"):
                    problems.append(f"/tools/{i}: the search tool is deferred")
            elif kind == "namespace":
                members = t.get("tools") or []
                if not 0 < len(members) < 10:
                    problems.append(f"/tools/{i}: namespace {t.get('name')} holds {len(members)} functions")
                for j, f in enumerate(members):
                    try:
                        Sdk.member.validate_python(f, strict=True)
                    except ValidationError as e:
                        problems.append(f"/tools/{i}/tools/{j}: the namespace's function type rejects it: {sdk_error(e)}")
                    problems += [f"/tools/{i}/tools/{j}/{k}: unknown key" for k in sorted(set(f) - Sdk.responses_keys["member"])]
                    if f.get("defer_loading") is not True:
                        problems.append(f"/tools/{i}/tools/{j}: a namespace member is not deferred")
                    deferred.append(f.get("name"))
                loaded.append(t)
            elif kind == "function":
                (deferred if t.get("defer_loading") is True else kept).append(t.get("name"))
        if loaded:
            item = {"type": "tool_search_output", "call_id": "call_1", "execution": "client", "status": "completed", "tools": loaded}
            for part, adapter in [(item, Sdk.search_output), *((t, Sdk.loaded_tool) for t in loaded)]:
                try:
                    adapter.validate_python(part, strict=True)
                except ValidationError as e:
                    problems.append(f"a tool_search_output loading every namespace: {sdk_error(e)}")
    if not any(mcp(n) in catalog_names for n in kept):
        problems.append("every tool of the catalog is deferred")
    sent = {mcp(n) for n in deferred + kept}
    lost = sorted(n for n in (names.values() if isinstance(names, dict) else []) if n in catalog_names and n not in sent)
    if lost:
        problems.append(f"converted but not sent: {', '.join(lost[:5])}")
    for n in deferred:
        if not isinstance(n, str) or not NAME64.match(n):
            problems.append(f"deferred tool name {n!r} cannot be a tool_reference's")
        elif mcp(n) not in catalog_names:
            problems.append(f"deferred tool {n!r} is no tool of the catalog")
    report = out.get("report") or []
    for n in deferred + [k for k in kept if mcp(k) in catalog_names]:
        entries = [e for e in report if e.get("tool") == mcp(n) and e.get("action") in ("deferred", "loaded")]
        if len(entries) != 1:
            problems.append(f"{n}: {len(entries)} deferred/loaded report entries")
    return problems


def self_test() -> list[str]:
    """Each rule fires on a known-bad output."""
    Sdk.load()
    schema = {"type": "object", "properties": {}}
    fn = lambda n, d=True: {"type": "function", "name": n, "description": "d", "parameters": schema, "strict": False, "defer_loading": d}  # noqa: E731
    custom = lambda n, d=True: {"name": n, "description": "d", "input_schema": schema, "defer_loading": d}  # noqa: E731
    bm25 = {"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"}
    report = lambda ns: [{"tool": n, "action": "deferred"} for n in ns]  # noqa: E731
    cases = [
        ("all deferred", "anthropic", {"tools": [bm25, custom("a"), custom("b")], "report": report("ab")}, {"a", "b"}, "every tool of the catalog is deferred"),
        ("an unknown key", "anthropic", {"tools": [bm25, custom("a", False) | {"deferred": True}, custom("b")], "report": report("ab")}, {"a", "b"}, "unknown key"),
        ("a long name", "anthropic", {"tools": [bm25, custom("a", False), custom("b" * 65)], "report": report(["a", "b" * 65])}, {"a", "b" * 65}, "cannot be a tool_reference"),
        ("a tool lost", "anthropic", {"tools": [bm25, custom("a", False)], "names": {"a": "a", "b": "b"}, "report": report("a")}, {"a", "b"}, "not sent: b"),
        ("a tool reported twice", "anthropic", {"tools": [bm25, custom("a", False), custom("b")], "report": report("abb")}, {"a", "b"}, "2 deferred/loaded"),
        ("ten in a namespace", "openai-responses", {"tools": [{"type": "tool_search"}, fn("k", False), {"type": "namespace", "name": "n", "description": "d", "tools": [fn(f"f{i}") for i in range(10)]}], "report": report(["k"] + [f"f{i}" for i in range(10)])}, {"k"} | {f"f{i}" for i in range(10)}, "holds 10"),
        ("a bad namespace member", "openai-responses", {"tools": [{"type": "tool_search"}, fn("k", False), {"type": "namespace", "name": "n", "description": "d", "tools": [fn("f") | {"strict": "yes"}]}], "report": report("kf")}, {"k", "f"}, "function type rejects it"),
    ]
    return [label for label, d, out, names, expect in cases if not any(expect in p for p in check(d, out, names))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    missed = self_test()
    if missed:
        print("the rule checks do not catch: " + ", ".join(missed), file=sys.stderr)
        return 1
    print("self-test: every rule check fires on its known-bad output")
    with tempfile.TemporaryDirectory(prefix="mcp-switchboard-native-") as tmp:
        cats = load_catalogs(tmp)

        def run(job):
            cat, dialect, flags = job
            cmd = ["node", CLI, "convert", "--to", dialect, "--disclosure", "native", *flags, cat.path]
            p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
            if p.returncode != 0:
                return job, None, [f"the CLI exited {p.returncode}: {p.stderr.strip()[:300]}"]
            return job, json.loads(p.stdout), []

        jobs = [(c, d, f) for c in cats for d, f in RUNS]
        with ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(run, jobs))
    failed = 0
    for (cat, dialect, flags), out, errors in results:
        names = {t.get("name") for t in cat.tools if isinstance(t, dict)}
        problems = errors or check(dialect, out, names)
        failed += bool(problems)
        label = f"{dialect} {' '.join(flags)}"
        print(f"{'FAIL' if problems else 'ok  '} {cat.label:<44} {label}")
        for p in problems[: None if args.verbose else 5]:
            print(f"       {p}")
    print(f"\n{len(results)} native conversions of {len(cats)} catalogs checked")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
