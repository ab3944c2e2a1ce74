#!/usr/bin/env python3
"""Validates mcp-switchboard's dialect output against the vendors' own SDK types
and against the API rules the SDKs do not check.

Run from the repository root, after building pkg/ (`node js/build.mjs`):

    python3 -m venv .venv && .venv/bin/pip install -r tests/py/requirements.txt
    .venv/bin/python tests/py/check_dialects.py [-v] [-j N] [--only SUBSTRING]

For every catalog (the corpus `*.tools-list.json` files, the schema edge cases,
the Home Assistant GetLiveContext fragment and js/examples) and every dialect
(strict on and off where the dialect has a strict mode) it runs
`node js/cli.mjs convert --to <dialect> [--strict] FILE`, then checks the output.
It prints one line per (catalog, dialect) and exits 1 listing every problem.
Besides the SDK types it checks the rules the APIs enforce and the SDKs do not:
Gemini's `parameters` never hold `type` beside `anyOf` (@google/genai refuses the
request) nor an OBJECT without properties (the API answers 400); no dialect puts
combinators, `not`, conditionals, `enum` or `const` at the top of an input schema;
no definition is sent that nothing refers to; Anthropic's strict tools stay within
20 tools, 24 optional and 16 union-typed parameters per request. Each of these
checks is first proven on a known-bad output (`self_test`; `--self-test` runs
only that).
`--extra FILE` adds any tools/list file; `--json-schema-test-suite` adds one tool
per draft2020-12 schema of ../shared/json-schema-test-suite (adversarial input).

Nothing is written into the repository: the catalogs built from corpus
fragments go to a temporary directory that is removed at exit.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from pydantic import TypeAdapter, ValidationError

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CORPUS = os.path.abspath(os.environ.get("MCP_CORPUS", os.path.join(ROOT, "..", "shared", "corpus")))
CLI = os.path.join(ROOT, "js", "cli.mjs")
EXAMPLE = os.path.join(ROOT, "js", "examples", "home-assistant.tools-list.json")

DIALECTS = ["gemini", "gemini-json", "openai", "openai-responses", "anthropic", "vscode", "prompted"]
STRICT_DIALECTS = {"openai", "openai-responses", "anthropic"}
REPORT_ACTIONS = {"dropped", "rewritten", "described", "added", "renamed", "skipped", "not_strict", "narrowed", "flagged"}

# --- name rules --------------------------------------------------------------

GEMINI_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$")
OPENAI_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
ANTHROPIC_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
# VS Code's package.json schema patterns are JavaScript regexes: \w is ASCII.
VSCODE_NAME = re.compile(r"^(?!copilot_|vscode_)[\w-]+$", re.ASCII)
VSCODE_REF_NAME = re.compile(r"^[\w-]+$", re.ASCII)

# --- Gemini `Schema` (OpenAPI subset) -----------------------------------------

GEMINI_TYPES = {"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"}
GEMINI_KEYS = {
    "type", "format", "title", "description", "nullable", "enum", "items", "minItems", "maxItems",
    "properties", "required", "minProperties", "maxProperties", "minLength", "maxLength", "pattern",
    "minimum", "maximum", "anyOf", "propertyOrdering", "default", "example",
}
GEMINI_FORMATS = {"date-time": {"STRING"}, "int32": {"INTEGER"}, "int64": {"INTEGER"},
                  "float": {"NUMBER"}, "double": {"NUMBER"}}  # plus "enum" on any type

# --- OpenAI structured outputs (strict) ---------------------------------------

OPENAI_STRICT_KEYS = {
    "$ref", "$defs", "type", "enum", "const", "title", "description", "properties", "required",
    "additionalProperties", "items", "anyOf", "pattern", "format", "multipleOf", "maximum",
    "exclusiveMaximum", "minimum", "exclusiveMinimum", "minItems", "maxItems",
}
OPENAI_STRICT_FORMATS = {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
OPENAI_STRICT_BANNED = {"allOf", "not", "if", "then", "else", "oneOf"}
OPENAI_MAX_NESTING = 10
OPENAI_MAX_PROPERTIES = 5000
OPENAI_MAX_ENUM_VALUES = 1000
OPENAI_MAX_NAME_CHARS = 120_000  # property names, $defs names, enum and const values
OPENAI_LARGE_ENUM = 250  # a string enum longer than this ...
OPENAI_MAX_LARGE_ENUM_CHARS = 15_000  # ... has this many characters at most

# --- Anthropic strict tool use ------------------------------------------------

ANTHROPIC_STRICT_BANNED = {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                           "multipleOf", "minLength", "maxLength"}
ANTHROPIC_STRICT_FORMATS = {"date-time", "date", "time", "duration", "email", "hostname", "uri",
                            "ipv4", "ipv6", "uuid"}
# per request, across the strict tools (Anthropic's structured-outputs limits)
ANTHROPIC_MAX_STRICT_TOOLS = 20
ANTHROPIC_MAX_OPTIONAL = 24  # properties not in required, at every level
ANTHROPIC_MAX_UNIONS = 16  # anyOf or a type list, at every level

# --- every dialect -------------------------------------------------------------

# keywords the model APIs refuse at the top of an input schema (Anthropic: "oneOf, allOf or
# anyOf at the top level"; OpenAI the same and enum/not), whatever they take deeper down
NOT_AT_ROOT = ("anyOf", "oneOf", "allOf", "not", "if", "then", "else", "enum", "const")

# --- VS Code contributes.languageModelTools -----------------------------------

VSCODE_KEYS = {"name", "displayName", "toolReferenceName", "legacyToolReferenceFullNames",
               "canBeReferencedInPrompt", "userDescription", "modelDescription", "inputSchema",
               "icon", "when", "tags"}
VSCODE_RUNTIME_KEYS = {"name", "description", "inputSchema"}


def typed_dict_keys(td: Any) -> set[str]:
    return set(td.__required_keys__) | set(td.__optional_keys__)


class Sdk:
    """The vendors' SDK types, imported on first use: importing them takes a few
    seconds, which main() overlaps with the conversions."""

    loaded = False

    @classmethod
    def load(cls) -> None:
        if cls.loaded:
            return
        from anthropic.types import ToolParam as anthropic_tool
        from google.genai import types as genai_types
        try:  # the function variant of the Chat tool union in current SDKs
            from openai.types.chat import ChatCompletionFunctionToolParam as chat_tool
        except ImportError:  # pragma: no cover - older SDKs
            from openai.types.chat import ChatCompletionToolParam as chat_tool
        from openai.types.responses import FunctionToolParam as responses_tool
        from openai.types.shared_params import FunctionDefinition as chat_function

        cls.genai_tool = genai_types.Tool
        cls.chat_tool = TypeAdapter(chat_tool)
        cls.responses_tool = TypeAdapter(responses_tool)
        cls.anthropic_tool = TypeAdapter(anthropic_tool)
        # pydantic ignores unknown keys of a TypedDict; these sets let the checks refuse them
        cls.chat_tool_keys = typed_dict_keys(chat_tool)
        cls.chat_function_keys = typed_dict_keys(chat_function)
        cls.responses_tool_keys = typed_dict_keys(responses_tool)
        cls.anthropic_tool_keys = typed_dict_keys(anthropic_tool)
        cls.loaded = True


# --- JSON pointers and schema walking ----------------------------------------

def ptr(base: str, *tokens: Any) -> str:
    for t in tokens:
        base += "/" + str(t).replace("~", "~0").replace("/", "~1")
    return base


def resolve_pointer(doc: Any, pointer: str) -> tuple[bool, Any]:
    """Resolves a JSON pointer ("" or "/a/b") inside doc."""
    if pointer == "":
        return True, doc
    if not pointer.startswith("/"):
        return False, None
    cur = doc
    for raw in pointer[1:].split("/"):
        tok = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(cur, dict) and tok in cur:
            cur = cur[tok]
        elif isinstance(cur, list) and tok.isdigit() and int(tok) < len(cur):
            cur = cur[int(tok)]
        else:
            return False, None
    return True, cur


def resolve_ref(root: Any, ref: Any) -> tuple[bool, Any, str]:
    """A local `$ref` ("#", "#/$defs/X") resolved inside root: (ok, target, pointer)."""
    if not isinstance(ref, str) or not ref.startswith("#"):
        return False, None, ""
    from urllib.parse import unquote
    pointer = unquote(ref[1:])
    ok, target = resolve_pointer(root, pointer)
    return ok, target, pointer


SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
SCHEMA_SINGLES = ("items", "additionalProperties", "not", "if", "then", "else", "contains",
                  "propertyNames", "additionalItems", "unevaluatedItems", "unevaluatedProperties")
NESTING_KEYS = {"properties", "patternProperties", "items", "prefixItems", "additionalProperties",
                "additionalItems", "contains", "unevaluatedItems", "unevaluatedProperties",
                "dependentSchemas"}


def children(node: dict, at: str) -> Iterator[tuple[str, str, Any]]:
    """Direct subschemas of a JSON Schema node: (keyword, pointer, subschema)."""
    for k in SCHEMA_MAPS:
        v = node.get(k)
        if isinstance(v, dict):
            for name, sub in v.items():
                yield k, ptr(at, k, name), sub
    for k in SCHEMA_LISTS:
        v = node.get(k)
        if isinstance(v, list):
            for i, sub in enumerate(v):
                yield k, ptr(at, k, i), sub
    for k in SCHEMA_SINGLES:
        v = node.get(k)
        if isinstance(v, list) and k == "items":  # draft-07 tuple form
            for i, sub in enumerate(v):
                yield k, ptr(at, k, i), sub
        elif v is not None:
            yield k, ptr(at, k), v


def walk(schema: Any, at: str = "", depth: int = 0) -> Iterator[tuple[str, Any, int]]:
    """Every subschema (dicts and booleans) with its pointer and nesting depth
    (hops through properties/items; $defs restart at 0)."""
    yield at, schema, depth
    if isinstance(schema, dict):
        for k, p, sub in children(schema, at):
            d = 0 if k in ("$defs", "definitions") else depth + (1 if k in NESTING_KEYS else 0)
            yield from walk(sub, p, d)


def types_of(node: dict) -> set[str]:
    t = node.get("type")
    if isinstance(t, str):
        return {t}
    if isinstance(t, list):
        return {x for x in t if isinstance(x, str)}
    return set()


def is_object_node(node: dict) -> bool:
    return "object" in types_of(node) or "properties" in node


def accepts_null(node: Any, root: Any, seen: frozenset = frozenset()) -> bool:
    """Whether JSON `null` validates against node (for the keywords that matter here)."""
    if node is True:
        return True
    if not isinstance(node, dict):
        return False
    if "$ref" in node:
        ok, target, p = resolve_ref(root, node["$ref"])
        if not ok or p in seen or not accepts_null(target, root, seen | {p}):
            return False
    if "type" in node and "null" not in types_of(node):
        return False
    if "enum" in node and (not isinstance(node["enum"], list) or None not in node["enum"]):
        return False
    if "const" in node and node["const"] is not None:
        return False
    if isinstance(node.get("anyOf"), list) and not any(accepts_null(b, root, seen) for b in node["anyOf"]):
        return False
    if isinstance(node.get("oneOf"), list) and sum(accepts_null(b, root, seen) for b in node["oneOf"]) != 1:
        return False
    if isinstance(node.get("allOf"), list) and not all(accepts_null(b, root, seen) for b in node["allOf"]):
        return False
    return True


def ref_cycles(schema: Any) -> list[tuple[str, str]]:
    """(pointer of the $ref, target) for every $ref that closes a cycle."""
    found: list[tuple[str, str]] = []
    state: dict[str, int] = {}  # 1 on stack, 2 done

    def visit(node: Any, at: str) -> None:
        state[at] = 1
        if isinstance(node, dict):
            succ = [(p, sub) for _, p, sub in children(node, at)]
            if "$ref" in node:
                ok, target, tp = resolve_ref(schema, node["$ref"])
                if ok:
                    if state.get(tp) == 1 or at.startswith(tp + "/") or tp == "":
                        found.append((at, node["$ref"]))
                    elif tp not in state:
                        succ.append((tp, target))
            for p, sub in succ:
                if state.get(p) == 1:
                    found.append((at, p))
                elif p not in state:
                    visit(sub, p)
        state[at] = 2

    visit(schema, "")
    return found


# --- problems and results ----------------------------------------------------

@dataclass
class Problem:
    catalog: str
    run: str
    tool: str
    pointer: str
    message: str

    def __str__(self) -> str:
        return f"{self.catalog} | {self.run} | {self.tool or '-'} | {self.pointer or '/'} | {self.message}"


@dataclass
class Catalog:
    label: str
    path: str
    tools: list  # the raw MCP tool objects, in order

    @property
    def mcp_names(self) -> set[str]:
        return {t["name"] for t in self.tools if isinstance(t, dict) and isinstance(t.get("name"), str)}

    def tool(self, name: str) -> dict | None:
        for t in self.tools:
            if isinstance(t, dict) and t.get("name") == name:
                return t
        return None


@dataclass
class Run:
    catalog: Catalog
    dialect: str
    strict: bool
    out: dict | None = None
    error: str | None = None
    problems: list[Problem] = field(default_factory=list)
    emitted: int = 0
    skipped: int = 0
    not_strict: int = 0
    strict_tools: int = 0

    @property
    def label(self) -> str:
        return self.dialect + (" --strict" if self.strict else "")

    def fail(self, tool: str, pointer: str, message: str) -> None:
        self.problems.append(Problem(self.catalog.label, self.label, tool, pointer, message))

    def tool_label(self, name: str) -> str:
        mcp = (self.out or {}).get("names", {}).get(name) if isinstance((self.out or {}).get("names"), dict) else None
        return name if mcp in (None, name) else f"{name} (MCP {mcp})"


def sdk_error(e: ValidationError, limit: int = 6) -> str:
    parts = []
    for err in e.errors()[:limit]:
        loc = "/".join(str(x) for x in err["loc"])
        parts.append(f"{loc}: {err['msg']}")
    more = len(e.errors()) - limit
    return "; ".join(parts) + (f" (+{more} more)" if more > 0 else "")


# --- shared checks ------------------------------------------------------------

def check_refs(run: Run, tool: str, schema: Any, at: str) -> None:
    """Every $ref is local and resolves inside the schema it sits in."""
    for p, node, _ in walk(schema):
        if isinstance(node, dict) and "$ref" in node:
            ok, _, _ = resolve_ref(schema, node["$ref"])
            if not ok:
                run.fail(tool, at + p + "/$ref", f"$ref {node['$ref']!r} does not resolve inside the schema")


def check_array_items(run: Run, tool: str, schema: Any, at: str) -> None:
    for p, node, _ in walk(schema):
        if isinstance(node, dict) and "array" in types_of(node) and "items" not in node:
            run.fail(tool, at + p, "array schema without items")


def check_required_list(run: Run, tool: str, schema: Any, at: str) -> None:
    for p, node, _ in walk(schema):
        if isinstance(node, dict) and "required" in node:
            req = node["required"]
            if not isinstance(req, list) or not all(isinstance(x, str) for x in req):
                run.fail(tool, at + p + "/required", "required is not an array of strings")
            elif len(set(req)) != len(req):
                run.fail(tool, at + p + "/required", f"required has duplicates: {req}")


def check_root_keywords(run: Run, tool: str, schema: Any, at: str) -> None:
    """Nothing at the top of an input schema that model APIs refuse there."""
    if isinstance(schema, dict):
        for k in NOT_AT_ROOT:
            if k in schema:
                run.fail(tool, ptr(at, k), f"{k} at the top level of the input schema")


def check_defs_used(run: Run, tool: str, schema: Any, at: str) -> None:
    """Every definition of the root is reached from the rest of the schema."""
    if not isinstance(schema, dict):
        return

    def name_of(ref: Any) -> tuple[str, str] | None:
        if not isinstance(ref, str) or not ref.startswith("#/"):
            return None
        parts = ref[2:].split("/")
        if len(parts) < 2 or parts[0] not in ("$defs", "definitions"):
            return None
        from urllib.parse import unquote
        return parts[0], unquote(parts[1]).replace("~1", "/").replace("~0", "~")

    def refs_in(v: Any) -> list[tuple[str, str]]:
        found, stack = [], [v]
        while stack:
            x = stack.pop()
            if isinstance(x, dict):
                n = name_of(x.get("$ref"))
                if n:
                    found.append(n)
                stack.extend(x.values())
            elif isinstance(x, list):
                stack.extend(x)
        return found

    pending = [n for k, v in schema.items() if k not in ("$defs", "definitions") for n in refs_in(v)]
    seen: set[tuple[str, str]] = set()
    while pending:
        n = pending.pop()
        if n in seen:
            continue
        seen.add(n)
        d = schema.get(n[0])
        if isinstance(d, dict) and n[1] in d:
            pending.extend(refs_in(d[n[1]]))
    for which in ("$defs", "definitions"):
        if isinstance(schema.get(which), dict):
            for name in schema[which]:
                if (which, name) not in seen:
                    run.fail(tool, ptr(at, which, name), "definition nothing refers to (sent for nothing; "
                                                          "can make the tool non-strict for nothing)")


def anthropic_strict_cost(schema: Any) -> tuple[int, int]:
    """(optional parameters, union-typed parameters) of a strict schema, at every level."""
    optional = unions = 0
    for _, node, _ in walk(schema):
        if not isinstance(node, dict):
            continue
        if isinstance(node.get("properties"), dict):
            req = node.get("required") if isinstance(node.get("required"), list) else []
            optional += sum(1 for k in node["properties"] if k not in req)
        if "anyOf" in node or (isinstance(node.get("type"), list) and len(node["type"]) > 1):
            unions += 1
    return optional, unions


def check_anthropic_request_limits(run: Run, strict_schemas: list[tuple[str, Any]]) -> None:
    """Anthropic's limits across the strict tools of one request."""
    tools = len(strict_schemas)
    optional = unions = 0
    for _, schema in strict_schemas:
        o, u = anthropic_strict_cost(schema)
        optional += o
        unions += u
    if tools > ANTHROPIC_MAX_STRICT_TOOLS:
        run.fail("", "/tools", f"{tools} strict tools; Anthropic takes {ANTHROPIC_MAX_STRICT_TOOLS} per request")
    if optional > ANTHROPIC_MAX_OPTIONAL:
        run.fail("", "/tools", f"{optional} optional parameters across the strict tools; "
                               f"Anthropic takes {ANTHROPIC_MAX_OPTIONAL} per request")
    if unions > ANTHROPIC_MAX_UNIONS:
        run.fail("", "/tools", f"{unions} union-typed parameters across the strict tools; "
                               f"Anthropic takes {ANTHROPIC_MAX_UNIONS} per request")


def check_no_strict_flag(run: Run, tool: str, value: Any, at: str) -> None:
    if value not in (None, False):
        run.fail(tool, at, f"strict is {value!r} although strict mode was not asked for")


def check_openai_strict_schema(run: Run, tool: str, schema: Any, at: str) -> None:
    """OpenAI structured outputs rules for a `strict: true` function."""
    if not isinstance(schema, dict):
        run.fail(tool, at, "parameters is not an object")
        return
    if schema.get("type") != "object":
        run.fail(tool, at + "/type", f"strict root must be type \"object\", found {schema.get('type')!r}")
    if "anyOf" in schema:
        run.fail(tool, at + "/anyOf", "strict root must not be anyOf")
    props_total = enum_total = name_chars = 0
    for p, node, depth in walk(schema):
        here = at + p
        if isinstance(node, bool):
            if not (p.endswith("/additionalProperties") and node is False):
                run.fail(tool, here, f"boolean schema {node!r} is not supported in strict mode")
            continue
        if not isinstance(node, dict):
            run.fail(tool, here, "schema node is not an object")
            continue
        for k in node:
            if k in OPENAI_STRICT_BANNED:
                run.fail(tool, ptr(here, k), f"{k} is not supported in strict mode")
            elif k not in OPENAI_STRICT_KEYS:
                run.fail(tool, ptr(here, k), f"keyword {k!r} is not in the structured-outputs subset")
        if not any(k in node for k in ("type", "anyOf", "$ref")):
            run.fail(tool, here, "node has no type (nor anyOf/$ref)")
        fmt = node.get("format")
        if fmt is not None and fmt not in OPENAI_STRICT_FORMATS:
            run.fail(tool, ptr(here, "format"), f"format {fmt!r} is not supported in strict mode")
        if depth > OPENAI_MAX_NESTING:
            run.fail(tool, here, f"nesting depth {depth} exceeds {OPENAI_MAX_NESTING}")
        if is_object_node(node):
            if node.get("additionalProperties") is not False:
                run.fail(tool, here, f"object without additionalProperties: false "
                                     f"(found {node.get('additionalProperties', '<absent>')!r})")
            props = node.get("properties", {})
            props = props if isinstance(props, dict) else {}
            req = node.get("required", [])
            if not isinstance(req, list) or set(req) != set(props) or len(req) != len(set(req)):
                missing = sorted(set(props) - set(req if isinstance(req, list) else []))
                extra = sorted(set(req if isinstance(req, list) else []) - set(props))
                run.fail(tool, ptr(here, "required"),
                         f"required must list exactly every property (missing {missing}, unknown {extra})")
            props_total += len(props)
            name_chars += sum(len(k) for k in props)
        if isinstance(node.get("enum"), list):
            enum = node["enum"]
            enum_total += len(enum)
            strs = [v for v in enum if isinstance(v, str)]
            name_chars += sum(len(v) for v in strs)
            if len(strs) > OPENAI_LARGE_ENUM and sum(map(len, strs)) > OPENAI_MAX_LARGE_ENUM_CHARS:
                run.fail(tool, ptr(here, "enum"), f"string enum of {len(strs)} values exceeds "
                                                  f"{OPENAI_MAX_LARGE_ENUM_CHARS} characters")
        if isinstance(node.get("const"), str):
            name_chars += len(node["const"])
        for k in ("$defs",):
            if isinstance(node.get(k), dict):
                name_chars += sum(len(n) for n in node[k])
    if props_total > OPENAI_MAX_PROPERTIES:
        run.fail(tool, at, f"{props_total} properties; strict mode allows {OPENAI_MAX_PROPERTIES}")
    if enum_total > OPENAI_MAX_ENUM_VALUES:
        run.fail(tool, at, f"{enum_total} enum values; strict mode allows {OPENAI_MAX_ENUM_VALUES}")
    if name_chars > OPENAI_MAX_NAME_CHARS:
        run.fail(tool, at, f"{name_chars} characters of names/enum values; strict mode allows {OPENAI_MAX_NAME_CHARS}")


def unwrap(node: Any, root: Any) -> Any:
    """Follows a bare $ref and picks the single non-null anyOf branch."""
    for _ in range(8):
        if not isinstance(node, dict):
            return node
        if "$ref" in node and "properties" not in node:
            ok, target, _ = resolve_ref(root, node["$ref"])
            if not ok:
                return node
            node = target
            continue
        branches = node.get("anyOf")
        if isinstance(branches, list) and "properties" not in node and "items" not in node:
            real = [b for b in branches if not (isinstance(b, dict) and b.get("type") == "null")]
            if len(real) == 1:
                node = real[0]
                continue
        return node
    return node


def is_null_branch(b: Any) -> bool:
    return isinstance(b, dict) and b.get("type") == "null"


def merged_view(node: Any, root: Any, depth: int = 0) -> Any:
    """The original schema node with $ref followed and allOf branches merged
    (properties and required united), for comparing with the lowered one."""
    node = unwrap(node, root)
    if not isinstance(node, dict) or not isinstance(node.get("allOf"), list) or depth > 8:
        return node
    out = {k: v for k, v in node.items() if k != "allOf"}
    props = dict(out.get("properties") or {})
    req = list(out.get("required") or [])
    for b in node["allOf"]:
        bv = merged_view(b, root, depth + 1)
        if not isinstance(bv, dict):
            continue
        for k, v in (bv.get("properties") or {}).items():
            props.setdefault(k, v)
        req += [r for r in (bv.get("required") or []) if isinstance(r, str)]
        for k in ("items", "anyOf", "oneOf"):
            if k in bv and k not in out:
                out[k] = bv[k]
    if props:
        out["properties"] = props
    out["required"] = req
    return out


def check_optional_nullable(run: Run, tool: str, original: Any, emitted: Any, at: str) -> None:
    """Strict OpenAI: a property the MCP schema leaves optional must accept null
    (the model sends null to leave it out), not become required-without-null."""
    seen: set[tuple[int, int]] = set()

    def go(orig: Any, em: Any, here: str, depth: int) -> None:
        orig, em = merged_view(orig, original), unwrap(em, emitted)
        if not isinstance(orig, dict) or not isinstance(em, dict) or depth > 12:
            return
        key = (id(orig), id(em))
        if key in seen:
            return
        seen.add(key)
        oprops, eprops = orig.get("properties"), em.get("properties")
        if isinstance(oprops, dict) and isinstance(eprops, dict):
            oreq = orig.get("required") if isinstance(orig.get("required"), list) else []
            for name, osub in oprops.items():
                if name not in eprops:
                    continue
                if name not in oreq and not accepts_null(eprops[name], emitted):
                    run.fail(tool, ptr(here, "properties", name),
                             "optional MCP property is required in strict mode but does not accept null")
                go(osub, eprops[name], ptr(here, "properties", name), depth + 1)
        if isinstance(orig.get("items"), dict) and isinstance(em.get("items"), (dict, bool)):
            go(orig["items"], em["items"], ptr(here, "items"), depth + 1)
        # unions: pair the original's branches with the emitted anyOf's, when they line up
        obranches = orig.get("anyOf", orig.get("oneOf"))
        ebranches = em.get("anyOf")
        if isinstance(obranches, list) and isinstance(ebranches, list):
            onn = [(i, b) for i, b in enumerate(obranches) if not is_null_branch(b)]
            enn = [(i, b) for i, b in enumerate(ebranches) if not is_null_branch(b)]
            if len(onn) == len(enn):
                for (_, ob), (j, eb) in zip(onn, enn):
                    go(ob, eb, ptr(here, "anyOf", j), depth + 1)

    go(original, emitted, at, 0)


def check_anthropic_strict_schema(run: Run, tool: str, schema: Any, at: str) -> None:
    for p, node, _ in walk(schema):
        here = at + p
        if not isinstance(node, dict):
            continue
        if is_object_node(node) and node.get("additionalProperties") is not False:
            run.fail(tool, here, f"object without additionalProperties: false "
                                 f"(found {node.get('additionalProperties', '<absent>')!r})")
        for k in sorted(ANTHROPIC_STRICT_BANNED & set(node)):
            run.fail(tool, ptr(here, k), f"{k} is not supported in strict tool use")
        if "minItems" in node and node["minItems"] not in (0, 1):
            run.fail(tool, ptr(here, "minItems"), f"minItems {node['minItems']!r}; strict tool use allows only 0 or 1")
        fmt = node.get("format")
        if fmt is not None and fmt not in ANTHROPIC_STRICT_FORMATS:
            run.fail(tool, ptr(here, "format"), f"format {fmt!r} is not supported in strict tool use")
    for where, target in ref_cycles(schema):
        run.fail(tool, at + where, f"recursive $ref ({target}) is not supported in strict tool use")


def check_names_and_counts(run: Run, emitted_names: list[str]) -> None:
    out, cat = run.out, run.catalog
    names = out.get("names")
    if not isinstance(names, dict):
        run.fail("", "/names", "names is not an object")
        return
    counts: dict[str, int] = {}
    for n in emitted_names:
        counts[n] = counts.get(n, 0) + 1
    for n, c in counts.items():
        if c > 1:
            run.fail(n, "/tools", f"tool name emitted {c} times")
    for n in emitted_names:
        if n not in names:
            run.fail(n, "/names", "emitted tool name is missing from names")
    for d, mcp in names.items():
        if d not in counts:
            run.fail(d, ptr("/names", d), "names lists a tool that was not emitted")
        if mcp not in cat.mcp_names:
            run.fail(d, ptr("/names", d), f"maps to {mcp!r}, which is not a tool of the catalog")
    mcps = list(names.values())
    if len(set(mcps)) != len(mcps):
        run.fail("", "/names", "two emitted tools map to the same MCP tool")
    report = out.get("report")
    if not isinstance(report, list):
        run.fail("", "/report", "report is not an array")
        report = []
    for i, e in enumerate(report):
        if not isinstance(e, dict) or set(e) != {"tool", "pointer", "keyword", "action", "detail"}:
            run.fail("", ptr("/report", i), f"report entry has keys {sorted(e) if isinstance(e, dict) else e!r}")
            continue
        if e["action"] not in REPORT_ACTIONS:
            run.fail(e.get("tool") or "", ptr("/report", i), f"unknown action {e['action']!r}")
        if e["tool"] is not None and e["tool"] not in cat.mcp_names:
            run.fail(e["tool"], ptr("/report", i), "report names a tool that is not in the catalog")
    run.skipped = sum(1 for e in report if isinstance(e, dict) and e.get("action") == "skipped")
    run.not_strict = sum(1 for e in report if isinstance(e, dict) and e.get("action") == "not_strict")
    run.emitted = len(emitted_names)
    if run.emitted + run.skipped != len(cat.tools):
        run.fail("", "/tools", f"{run.emitted} emitted + {run.skipped} skipped != {len(cat.tools)} tools in the catalog")


def check_strict_fallback(run: Run, strict_by_name: dict[str, bool]) -> None:
    """Under --strict, a tool sent without strict must be reported as not_strict."""
    run.strict_tools = sum(strict_by_name.values())
    if not run.strict:
        return
    names = run.out.get("names", {})
    reported = {e.get("tool") for e in run.out.get("report", []) if isinstance(e, dict) and e.get("action") == "not_strict"}
    for n, s in strict_by_name.items():
        if not s and names.get(n) not in reported:
            run.fail(n, "/tools", "sent without strict although --strict was given, and no not_strict report entry says why")


def original_schema(run: Run, dialect_name: str) -> Any:
    mcp = run.out.get("names", {}).get(dialect_name)
    t = run.catalog.tool(mcp) if mcp else None
    return t.get("inputSchema") if t else None


# --- per-dialect checks -------------------------------------------------------

def check_gemini_schema(run: Run, tool: str, schema: Any, at: str) -> None:
    def node_check(node: Any, here: str, is_root: bool) -> None:
        if not isinstance(node, dict):
            run.fail(tool, here, f"schema node is {type(node).__name__}, not an object")
            return
        for k in node:
            if k not in GEMINI_KEYS:
                run.fail(tool, ptr(here, k), f"keyword {k!r} is outside Gemini's Schema subset")
        t = node.get("type")
        if t is not None and "anyOf" in node:
            # @google/genai refuses the whole request: "type and anyOf cannot be both populated."
            run.fail(tool, here, "type beside anyOf (the SDK refuses the request)")
        if t == "OBJECT" and not (isinstance(node.get("properties"), dict) and node["properties"]):
            # the API answers 400 for the whole request
            run.fail(tool, here, "OBJECT without properties (\"properties: should be non-empty for OBJECT type\")")
        if t is None:
            if "anyOf" not in node:
                run.fail(tool, here, "node has neither type nor anyOf")
        elif not isinstance(t, str) or t not in GEMINI_TYPES:
            run.fail(tool, ptr(here, "type"), f"type {t!r} is not one of {sorted(GEMINI_TYPES)}")
        if is_root and t != "OBJECT":
            run.fail(tool, ptr(here, "type"), f"parameters root type is {t!r}, not OBJECT")
        fmt = node.get("format")
        if fmt is not None and fmt != "enum" and t not in GEMINI_FORMATS.get(fmt, set()):
            run.fail(tool, ptr(here, "format"), f"format {fmt!r} is not allowed for type {t!r}")
        if "enum" in node:
            enum = node["enum"]
            if not isinstance(enum, list) or not all(isinstance(v, str) for v in enum):
                run.fail(tool, ptr(here, "enum"), f"enum values must all be strings: {enum!r}")
        if t == "ARRAY" and "items" not in node:
            run.fail(tool, here, "ARRAY without items")
        for k in ("properties", "required", "minProperties", "maxProperties", "propertyOrdering"):
            if k in node and t != "OBJECT":
                run.fail(tool, ptr(here, k), f"{k} on a node of type {t!r} (only OBJECT)")
        props = node.get("properties")
        if "properties" in node and not isinstance(props, dict):
            run.fail(tool, ptr(here, "properties"), "properties is not an object")
            props = {}
        props = props or {}
        req = node.get("required")
        if req is not None:
            if not isinstance(req, list) or not all(isinstance(x, str) for x in req):
                run.fail(tool, ptr(here, "required"), "required is not an array of strings")
            else:
                for r in req:
                    if r not in props:
                        run.fail(tool, ptr(here, "required"), f"required names {r!r}, which is not in properties")
                if len(set(req)) != len(req):
                    run.fail(tool, ptr(here, "required"), f"required has duplicates: {req}")
        order = node.get("propertyOrdering")
        if isinstance(order, list):
            for o in order:
                if o not in props:
                    run.fail(tool, ptr(here, "propertyOrdering"), f"propertyOrdering names {o!r}, not a property")
        for name, sub in props.items():
            node_check(sub, ptr(here, "properties", name), False)
        if "items" in node:
            node_check(node["items"], ptr(here, "items"), False)
        if "anyOf" in node:
            if not isinstance(node["anyOf"], list) or not node["anyOf"]:
                run.fail(tool, ptr(here, "anyOf"), "anyOf is not a non-empty array")
            else:
                for i, b in enumerate(node["anyOf"]):
                    node_check(b, ptr(here, "anyOf", i), False)

    node_check(schema, at, True)


def function_declarations(run: Run) -> list[tuple[str, dict]]:
    tools = run.out.get("tools")
    if not isinstance(tools, list):
        run.fail("", "/tools", "tools is not an array")
        return []
    if len(tools) > 1:
        run.fail("", "/tools", f"{len(tools)} Tool objects; expected one holding every declaration")
    decls: list[tuple[str, dict]] = []
    for i, item in enumerate(tools):
        try:
            Sdk.genai_tool.model_validate(item)
        except ValidationError as e:
            run.fail("", ptr("/tools", i), "google.genai Tool rejects it: " + sdk_error(e))
        if not isinstance(item, dict) or set(item) != {"functionDeclarations"}:
            run.fail("", ptr("/tools", i), f"expected only functionDeclarations, found {sorted(item) if isinstance(item, dict) else item!r}")
            continue
        fds = item["functionDeclarations"]
        if not isinstance(fds, list) or not fds:
            run.fail("", ptr("/tools", i, "functionDeclarations"), "functionDeclarations is not a non-empty array")
            continue
        for j, fd in enumerate(fds):
            here = ptr("/tools", i, "functionDeclarations", j)
            if not isinstance(fd, dict):
                run.fail("", here, "declaration is not an object")
                continue
            decls.append((here, fd))
    return decls


def check_declaration_basics(run: Run, here: str, fd: dict) -> str:
    name = fd.get("name")
    tool = run.tool_label(name) if isinstance(name, str) else repr(name)
    if not isinstance(name, str) or not GEMINI_NAME.match(name):
        run.fail(tool, ptr(here, "name"), f"name {name!r} does not match {GEMINI_NAME.pattern}")
    d = fd.get("description")
    if not isinstance(d, str) or not d.strip():
        run.fail(tool, ptr(here, "description"), "description is missing or empty")
    if "parameters" in fd and "parametersJsonSchema" in fd:
        run.fail(tool, here, "both parameters and parametersJsonSchema")
    if "response" in fd and "responseJsonSchema" in fd:
        run.fail(tool, here, "both response and responseJsonSchema")
    return tool


def check_gemini(run: Run) -> list[str]:
    names = []
    for here, fd in function_declarations(run):
        tool = check_declaration_basics(run, here, fd)
        names.append(fd.get("name"))
        if "parametersJsonSchema" in fd:
            run.fail(tool, ptr(here, "parametersJsonSchema"), "gemini (OpenAPI subset) output uses parametersJsonSchema")
        if "parameters" in fd:
            check_gemini_schema(run, tool, fd["parameters"], ptr(here, "parameters"))
            check_root_keywords(run, tool, fd["parameters"], ptr(here, "parameters"))
    return names


def check_gemini_json(run: Run) -> list[str]:
    names = []
    for here, fd in function_declarations(run):
        tool = check_declaration_basics(run, here, fd)
        names.append(fd.get("name"))
        if "parameters" in fd:
            run.fail(tool, ptr(here, "parameters"), "gemini-json output uses parameters (OpenAPI subset)")
        for key, need_object in (("parametersJsonSchema", True), ("responseJsonSchema", False)):
            if key not in fd:
                continue
            schema, at = fd[key], ptr(here, key)
            if not isinstance(schema, dict):
                run.fail(tool, at, f"{key} is not an object")
                continue
            if need_object and schema.get("type") != "object":
                run.fail(tool, ptr(at, "type"), f"root type is {schema.get('type')!r}, not \"object\"")
            for p, node, _ in walk(schema):
                if isinstance(node, dict) and "$schema" in node:
                    run.fail(tool, at + p + "/$schema", "$schema must be stripped")
            check_refs(run, tool, schema, at)
            check_required_list(run, tool, schema, at)
            if need_object:
                check_root_keywords(run, tool, schema, at)
                check_defs_used(run, tool, schema, at)
    return names


def check_openai(run: Run, responses: bool) -> list[str]:
    tools = run.out.get("tools")
    if not isinstance(tools, list):
        run.fail("", "/tools", "tools is not an array")
        return []
    names: list[str] = []
    strict_by_name: dict[str, bool] = {}
    for i, item in enumerate(tools):
        here = ptr("/tools", i)
        if not isinstance(item, dict):
            run.fail("", here, "tool is not an object")
            continue
        if responses:
            fn, fn_at = item, here
            raw_name = item.get("name")
            tool = run.tool_label(raw_name) if isinstance(raw_name, str) else repr(raw_name)
            try:
                Sdk.responses_tool.validate_python(item, strict=True)
            except ValidationError as e:
                run.fail(tool, here, "openai FunctionToolParam rejects it: " + sdk_error(e))
            for k in sorted(set(item) - Sdk.responses_tool_keys):
                run.fail(tool, ptr(here, k), f"unknown key {k!r} for a Responses function tool")
            for k in ("type", "name", "description", "parameters", "strict"):
                if k not in item:
                    run.fail(tool, here, f"missing {k}")
        else:
            fn, fn_at = item.get("function"), ptr(here, "function")
            raw_name = fn.get("name") if isinstance(fn, dict) else None
            tool = run.tool_label(raw_name) if isinstance(raw_name, str) else repr(raw_name)
            try:
                Sdk.chat_tool.validate_python(item, strict=True)
            except ValidationError as e:
                run.fail(tool, here, "openai ChatCompletionFunctionToolParam rejects it: " + sdk_error(e))
            for k in sorted(set(item) - Sdk.chat_tool_keys):
                run.fail(tool, ptr(here, k), f"unknown key {k!r} for a Chat Completions tool")
            if not isinstance(fn, dict):
                run.fail(tool, fn_at, "function is not an object")
                continue
            for k in sorted(set(fn) - Sdk.chat_function_keys):
                run.fail(tool, ptr(fn_at, k), f"unknown key {k!r} in function")
            for k in ("name", "description", "parameters"):
                if k not in fn:
                    run.fail(tool, fn_at, f"function is missing {k}")
        if item.get("type") != "function":
            run.fail(tool, ptr(here, "type"), f"type is {item.get('type')!r}, not \"function\"")
        name = fn.get("name")
        names.append(name)
        if not isinstance(name, str) or not OPENAI_NAME.match(name):
            run.fail(tool, ptr(fn_at, "name"), f"name {name!r} does not match {OPENAI_NAME.pattern}")
        d = fn.get("description")
        if not isinstance(d, str) or not d.strip():
            run.fail(tool, ptr(fn_at, "description"), "description is missing or empty")
        params, p_at = fn.get("parameters"), ptr(fn_at, "parameters")
        is_strict = fn.get("strict") is True
        strict_by_name[name] = is_strict
        if not run.strict:
            check_no_strict_flag(run, tool, fn.get("strict"), ptr(fn_at, "strict"))
        if not isinstance(params, dict):
            run.fail(tool, p_at, "parameters is not an object")
            continue
        if params.get("type") != "object":
            run.fail(tool, ptr(p_at, "type"), f"parameters root type is {params.get('type')!r}, not \"object\"")
        check_array_items(run, tool, params, p_at)
        check_refs(run, tool, params, p_at)
        check_required_list(run, tool, params, p_at)
        check_root_keywords(run, tool, params, p_at)
        check_defs_used(run, tool, params, p_at)
        if is_strict:
            check_openai_strict_schema(run, tool, params, p_at)
            check_optional_nullable(run, tool, original_schema(run, name), params, p_at)
    check_strict_fallback(run, strict_by_name)
    return names


def check_anthropic(run: Run) -> list[str]:
    tools = run.out.get("tools")
    if not isinstance(tools, list):
        run.fail("", "/tools", "tools is not an array")
        return []
    names: list[str] = []
    strict_by_name: dict[str, bool] = {}
    strict_schemas: list[tuple[str, Any]] = []
    for i, item in enumerate(tools):
        here = ptr("/tools", i)
        if not isinstance(item, dict):
            run.fail("", here, "tool is not an object")
            continue
        name = item.get("name")
        tool = run.tool_label(name) if isinstance(name, str) else repr(name)
        names.append(name)
        try:
            Sdk.anthropic_tool.validate_python(item, strict=True)
        except ValidationError as e:
            run.fail(tool, here, "anthropic ToolParam rejects it: " + sdk_error(e))
        for k in sorted(set(item) - Sdk.anthropic_tool_keys):
            run.fail(tool, ptr(here, k), f"unknown key {k!r} for an Anthropic tool")
        if not isinstance(name, str) or not ANTHROPIC_NAME.match(name):
            run.fail(tool, ptr(here, "name"), f"name {name!r} does not match {ANTHROPIC_NAME.pattern}")
        d = item.get("description")
        if not isinstance(d, str) or not d.strip():
            run.fail(tool, ptr(here, "description"), "description is missing or empty")
        is_strict = item.get("strict") is True
        strict_by_name[name] = is_strict
        if not run.strict:
            check_no_strict_flag(run, tool, item.get("strict"), ptr(here, "strict"))
        schema, s_at = item.get("input_schema"), ptr(here, "input_schema")
        if not isinstance(schema, dict):
            run.fail(tool, s_at, "input_schema is not an object")
            continue
        if schema.get("type") != "object":
            run.fail(tool, ptr(s_at, "type"), f"input_schema.type is {schema.get('type')!r}, not \"object\"")
        check_refs(run, tool, schema, s_at)
        check_required_list(run, tool, schema, s_at)
        check_root_keywords(run, tool, schema, s_at)
        check_defs_used(run, tool, schema, s_at)
        if is_strict:
            check_anthropic_strict_schema(run, tool, schema, s_at)
            strict_schemas.append((tool, schema))
    check_anthropic_request_limits(run, strict_schemas)
    check_strict_fallback(run, strict_by_name)
    return names


def check_vscode(run: Run) -> list[str]:
    tools = run.out.get("tools")
    if not isinstance(tools, list):
        run.fail("", "/tools", "tools is not an array")
        return []
    names: list[str] = []
    for i, item in enumerate(tools):
        here = ptr("/tools", i)
        if not isinstance(item, dict):
            run.fail("", here, "entry is not an object")
            continue
        name = item.get("name")
        tool = run.tool_label(name) if isinstance(name, str) else repr(name)
        names.append(name)
        for k in sorted(set(item) - VSCODE_KEYS):
            run.fail(tool, ptr(here, k), f"unknown key {k!r} in a languageModelTools entry")
        if not isinstance(name, str) or not VSCODE_NAME.match(name):
            run.fail(tool, ptr(here, "name"), f"name {name!r} does not match {VSCODE_NAME.pattern}")
        elif len(name) > 64:
            run.fail(tool, ptr(here, "name"), f"name is {len(name)} characters (models behind VS Code take 64)")
        ref = item.get("toolReferenceName")
        if not isinstance(ref, str) or not VSCODE_REF_NAME.match(ref):
            run.fail(tool, ptr(here, "toolReferenceName"), f"toolReferenceName {ref!r} does not match {VSCODE_REF_NAME.pattern}")
        for k in ("displayName", "modelDescription"):
            v = item.get(k)
            if not isinstance(v, str) or not v.strip():
                run.fail(tool, ptr(here, k), f"{k} is missing or empty")
        if "userDescription" in item and not isinstance(item["userDescription"], str):
            run.fail(tool, ptr(here, "userDescription"), "userDescription is not a string")
        if "canBeReferencedInPrompt" in item and not isinstance(item["canBeReferencedInPrompt"], bool):
            run.fail(tool, ptr(here, "canBeReferencedInPrompt"), "canBeReferencedInPrompt is not a boolean")
        schema, s_at = item.get("inputSchema"), ptr(here, "inputSchema")
        if not isinstance(schema, dict) or schema.get("type") != "object":
            run.fail(tool, s_at, "inputSchema is not an object schema with type \"object\"")
        else:
            check_array_items(run, tool, schema, s_at)
            check_refs(run, tool, schema, s_at)
            check_required_list(run, tool, schema, s_at)
            check_root_keywords(run, tool, schema, s_at)
            check_defs_used(run, tool, schema, s_at)
    runtime = run.out.get("runtime")
    if not isinstance(runtime, list):
        run.fail("", "/runtime", "runtime is missing or not an array")
        return names
    if len(runtime) != len(tools):
        run.fail("", "/runtime", f"{len(runtime)} runtime entries for {len(tools)} tools")
    for i, r in enumerate(runtime):
        here = ptr("/runtime", i)
        if not isinstance(r, dict) or set(r) != VSCODE_RUNTIME_KEYS:
            run.fail("", here, f"runtime entry keys {sorted(r) if isinstance(r, dict) else r!r}, expected {sorted(VSCODE_RUNTIME_KEYS)}")
            continue
        tool = run.tool_label(r["name"]) if isinstance(r["name"], str) else repr(r["name"])
        if i < len(tools) and isinstance(tools[i], dict):
            c = tools[i]
            if r["name"] != c.get("name"):
                run.fail(tool, ptr(here, "name"), f"runtime name {r['name']!r} != contribution name {c.get('name')!r}")
            if r["inputSchema"] != c.get("inputSchema"):
                run.fail(tool, ptr(here, "inputSchema"), "runtime inputSchema differs from the contribution's")
        if not isinstance(r["description"], str) or not r["description"].strip():
            run.fail(tool, ptr(here, "description"), "description is missing or empty")
        if not isinstance(r["inputSchema"], dict) or r["inputSchema"].get("type") != "object":
            run.fail(tool, ptr(here, "inputSchema"), "inputSchema is not an object schema with type \"object\"")
    return names


def check_prompted(run: Run) -> list[str]:
    tools = run.out.get("tools")
    if not isinstance(tools, list):
        run.fail("", "/tools", "tools is not an array")
        return []
    names = []
    for i, item in enumerate(tools):
        here = ptr("/tools", i)
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            run.fail("", here, "entry has no name")
            continue
        names.append(item["name"])
        if set(item) != {"name", "description", "parameters"}:
            run.fail(item["name"], here, f"entry keys {sorted(item)}, expected description, name, parameters")
    prompt = run.out.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        run.fail("", "/prompt", "prompt is missing or empty")
        return names
    if '"tool_calls"' not in prompt:
        run.fail("", "/prompt", 'prompt does not state the reply format ("tool_calls")')
    for n in names:
        if n not in prompt:
            run.fail(n, "/prompt", "prompt does not mention the tool")
    return names


CHECKS: dict[str, Callable[[Run], list[str]]] = {
    "gemini": check_gemini,
    "gemini-json": check_gemini_json,
    "openai": lambda r: check_openai(r, responses=False),
    "openai-responses": lambda r: check_openai(r, responses=True),
    "anthropic": check_anthropic,
    "vscode": check_vscode,
    "prompted": check_prompted,
}


# --- catalogs -----------------------------------------------------------------

def tools_of(doc: Any) -> list:
    """The tools of a tools/list response, its result, or a bare array."""
    if isinstance(doc, list):
        return doc
    if isinstance(doc, dict):
        if isinstance(doc.get("result"), dict):
            doc = doc["result"]
        if isinstance(doc.get("tools"), list):
            return doc["tools"]
    raise ValueError("no tools array")


def write_catalog(tmp: str, stem: str, tools: list) -> str:
    path = os.path.join(tmp, stem + ".tools-list.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}}, f)
    return path


def load_catalogs(tmp: str) -> list[Catalog]:
    cats: list[Catalog] = []
    files = sorted(glob.glob(os.path.join(CORPUS, "*.tools-list.json")))
    if not files:
        raise SystemExit(f"no *.tools-list.json in {CORPUS} (set MCP_CORPUS)")
    for path in files + [EXAMPLE]:
        with open(path, encoding="utf-8") as f:
            tools = tools_of(json.load(f))
        label = os.path.basename(path).removesuffix(".tools-list.json")
        if path == EXAMPLE:
            label = "js/examples/" + label
        cats.append(Catalog(label, path, tools))

    with open(os.path.join(CORPUS, "schema-edge-cases.json"), encoding="utf-8") as f:
        cases = json.load(f)
    edge = [{"name": k, "description": f"Schema edge case {k} (schema-edge-cases.json).", "inputSchema": v}
            for k, v in cases.items()]
    cats.append(Catalog("schema-edge-cases", write_catalog(tmp, "schema-edge-cases", edge), edge))

    with open(os.path.join(CORPUS, "home-assistant-fragments.json"), encoding="utf-8") as f:
        frags = json.load(f)["fragments"]
    by_tool: dict[str, dict] = {}
    for key, schema in frags.items():
        m = re.match(r"^(GetLiveContext)\.([A-Za-z0-9_]+)", key)
        if m:
            by_tool.setdefault(m.group(1), {})[m.group(2)] = schema
    if not by_tool:
        raise SystemExit("no GetLiveContext fragment in home-assistant-fragments.json")
    frag_tools = [{"name": name,
                   "description": "Current state of devices and areas (schema fragment from "
                                  "home-assistant-fragments.json, home-assistant/core#176762).",
                   "inputSchema": {"type": "object", "properties": props}}
                  for name, props in by_tool.items()]
    cats.append(Catalog("ha-fragment-GetLiveContext", write_catalog(tmp, "ha-fragment", frag_tools), frag_tools))
    return cats


def test_suite_catalog(tmp: str) -> Catalog:
    """One tool per schema of the JSON Schema Test Suite (draft 2020-12)."""
    suite = os.path.join(os.path.dirname(CORPUS), "json-schema-test-suite", "draft2020-12")
    tools = []
    for path in sorted(glob.glob(os.path.join(suite, "*.json"))):
        stem = os.path.basename(path)[:-5].replace("-", "_")
        with open(path, encoding="utf-8") as f:
            for i, group in enumerate(json.load(f)):
                schema = group["schema"]
                if isinstance(schema, dict):  # the meta-schema URI is not the point here
                    schema = {k: v for k, v in schema.items() if k != "$schema"}
                tools.append({"name": f"{stem}_{i}", "description": group["description"], "inputSchema": schema})
    if not tools:
        raise SystemExit(f"no JSON Schema Test Suite at {suite}")
    return Catalog("json-schema-test-suite", write_catalog(tmp, "json-schema-test-suite", tools), tools)


# --- running ------------------------------------------------------------------

def convert(run: Run) -> Run:
    cmd = ["node", CLI, "convert", "--to", run.dialect] + (["--strict"] if run.strict else []) + [run.catalog.path]
    try:
        p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        run.error = "the CLI timed out"
        return run
    if p.returncode != 0:
        run.error = f"the CLI exited {p.returncode}: {p.stderr.strip()[:500]}"
        return run
    try:
        run.out = json.loads(p.stdout)
    except json.JSONDecodeError as e:
        run.error = f"the CLI printed invalid JSON: {e}"
    return run


def validate(run: Run) -> None:
    Sdk.load()
    if run.error:
        run.fail("", "", run.error)
        return
    out = run.out
    if not isinstance(out, dict):
        run.fail("", "", "output is not a JSON object")
        return
    if out.get("dialect") != run.dialect:
        run.fail("", "/dialect", f"dialect is {out.get('dialect')!r}, expected {run.dialect!r}")
    extra = set(out) - {"dialect", "tools", "names", "report"}
    allowed_extra = {"vscode": {"runtime"}, "prompted": {"prompt"}}.get(run.dialect, set())
    for k in sorted(extra - allowed_extra):
        run.fail("", ptr("", k), f"unexpected top-level key {k!r}")
    try:
        names = CHECKS[run.dialect](run)
    except Exception as e:  # a crash in a check is a checker bug; show it plainly
        import traceback
        run.fail("", "", "checker crashed: " + "".join(traceback.format_exception_only(type(e), e)).strip())
        traceback.print_exc()
        return
    check_names_and_counts(run, [n for n in names if isinstance(n, str)])


# --- the checks, proven on known-bad outputs ------------------------------------

def self_test() -> list[str]:
    """Feeds each rule check an output that breaks its rule (what the conversions
    produced before, or a minimal case) and the corrected output; returns what did
    not go as expected. Runs before every check run."""
    Sdk.load()

    def tool_of(name: str, schema: Any) -> dict:
        return {"name": name, "description": "d", "inputSchema": schema}

    def run_of(dialect: str, strict: bool, items: list, names: list[str]) -> Run:
        cat = Catalog("self-test", "", [tool_of(n, {"type": "object"}) for n in names])
        tools = [{"functionDeclarations": items}] if dialect.startswith("gemini") else items
        out = {"dialect": dialect, "tools": tools, "names": {n: n for n in names}, "report": []}
        return Run(cat, dialect, strict, out=out)

    def fires(dialect: str, strict: bool, items: list, names: list[str], expect: str) -> bool:
        r = run_of(dialect, strict, items, names)
        CHECKS[dialect](r)
        return any(expect in p.message for p in r.problems)

    def gemini(name: str, params: Any) -> dict:
        return {"name": name, "description": "d", "parameters": params}

    def openai(name: str, params: Any, strict: bool = False) -> dict:
        f = {"name": name, "description": "d", "parameters": params}
        if strict:
            f["strict"] = True
        return {"type": "function", "function": f}

    def anthropic(name: str, schema: Any, strict: bool = False) -> dict:
        t = {"name": name, "description": "d", "input_schema": schema}
        if strict:
            t["strict"] = True
        return t

    cases: list[tuple[str, bool, list, list[str], str, bool]] = []
    # 1. Gemini: type beside anyOf (GitHub projects_write /properties/updated_field)
    bad = {"type": "OBJECT", "properties": {"updated_field": {"type": "OBJECT", "anyOf": [
        {"type": "OBJECT", "properties": {"id": {"type": "INTEGER"}}, "required": ["id"]}]}}}
    good = {"type": "OBJECT", "properties": {"updated_field": {"anyOf": [
        {"type": "OBJECT", "properties": {"id": {"type": "INTEGER"}}, "required": ["id"]}]}}}
    cases += [("gemini", False, [gemini("projects_write", bad)], ["projects_write"], "type beside anyOf", True),
              ("gemini", False, [gemini("projects_write", good)], ["projects_write"], "type beside anyOf", False)]
    # 2. Gemini: OBJECT without properties (ha-mcp ha_call_service /properties/data)
    bad = {"type": "OBJECT", "properties": {"data": {"type": "OBJECT", "nullable": True}}}
    good = {"type": "OBJECT", "properties": {"data": {"type": "STRING", "nullable": True,
                                                      "description": "Send this object as JSON text."}}}
    cases += [("gemini", False, [gemini("ha_call_service", bad)], ["ha_call_service"], "OBJECT without properties", True),
              ("gemini", False, [gemini("ha_call_service", good)], ["ha_call_service"], "OBJECT without properties", False)]
    # 3. plain Anthropic: a combinator at the top level
    bad = {"type": "object", "allOf": [{"properties": {"a": {"type": "string"}}}]}
    good = {"type": "object", "properties": {"a": {"type": "string"}}}
    cases += [("anthropic", False, [anthropic("t", bad)], ["t"], "allOf at the top level", True),
              ("anthropic", False, [anthropic("t", good)], ["t"], "at the top level", False)]
    # 4. Anthropic strict: the request's limits
    closed = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": False}
    names = [f"t{i}" for i in range(21)]
    cases += [("anthropic", True, [anthropic(n, closed, True) for n in names], names, "21 strict tools", True),
              ("anthropic", True, [anthropic(n, closed, True) for n in names[:20]], names[:20], "strict tools", False)]
    optional = {"type": "object", "additionalProperties": False,
                "properties": {f"p{i}": {"type": "string"} for i in range(25)}}
    cases.append(("anthropic", True, [anthropic("t", optional, True)], ["t"], "25 optional parameters", True))
    unions = {"type": "object", "additionalProperties": False, "required": [f"p{i}" for i in range(17)],
              "properties": {f"p{i}": {"type": ["string", "null"]} for i in range(17)}}
    cases.append(("anthropic", True, [anthropic("t", unions, True)], ["t"], "17 union-typed parameters", True))
    # 5. OpenAI strict: definitions nothing refers to (notion: 9 in every tool)
    bad = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": False,
           "$defs": {"pageProperties": {"type": "object", "additionalProperties": True}}}
    good = {k: v for k, v in bad.items() if k != "$defs"}
    cases += [("openai", True, [openai("t", bad, True)], ["t"], "definition nothing refers to", True),
              ("openai", True, [openai("t", good, True)], ["t"], "definition nothing refers to", False)]

    failures = []
    for dialect, strict, items, names, expect, should in cases:
        if fires(dialect, strict, items, names, expect) != should:
            failures.append(f"{dialect}{' --strict' if strict else ''}: the check for {expect!r} "
                            f"{'did not fire on' if should else 'fired on'} a {'bad' if should else 'good'} output")
    return failures


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-j", "--jobs", type=int, default=min(16, (os.cpu_count() or 4) * 2))
    ap.add_argument("-v", "--verbose", action="store_true", help="print each problem under its run")
    ap.add_argument("--only", default="", help="only catalogs whose label contains this")
    ap.add_argument("--extra", action="append", default=[], metavar="FILE",
                    help="also check this tools/list file (repeatable)")
    ap.add_argument("--json-schema-test-suite", action="store_true",
                    help="also check a catalog made of every draft2020-12 schema of the JSON Schema "
                         "Test Suite beside the corpus (adversarial; not part of the default run)")
    ap.add_argument("--self-test", action="store_true",
                    help="only prove each rule check on known-bad outputs (always done first)")
    args = ap.parse_args()

    failed = self_test()
    if failed:
        print("the rule checks do not catch what they must:", file=sys.stderr)
        for f in failed:
            print("  " + f, file=sys.stderr)
        return 1
    print("self-test: every rule check fires on its known-bad output")
    if args.self_test:
        return 0

    if not os.path.exists(os.path.join(ROOT, "pkg", "index.mjs")):
        print("pkg/ is missing: build it with `node js/build.mjs`", file=sys.stderr)
        return 2
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="mcp-switchboard-check-") as tmp:
        cats = load_catalogs(tmp)
        for path in args.extra:
            with open(path, encoding="utf-8") as f:
                cats.append(Catalog("extra:" + os.path.basename(path), os.path.abspath(path), tools_of(json.load(f))))
        if args.json_schema_test_suite:
            cats.append(test_suite_catalog(tmp))
        cats = [c for c in cats if args.only in c.label]
        if not cats:
            print(f"no catalog label contains {args.only!r}", file=sys.stderr)
            return 2
        runs = [Run(c, d, s) for c in cats for d in DIALECTS
                for s in ((False, True) if d in STRICT_DIALECTS else (False,))]
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            pending = [pool.submit(convert, r) for r in runs]
            Sdk.load()  # while the conversions run
            for f in pending:
                f.result()
    for r in runs:
        validate(r)

    width = max(len(c.label) for c in cats)
    problems: list[Problem] = []
    for r in runs:
        status = "ok  " if not r.problems else "FAIL"
        stats = f"{r.emitted:3d} tools, {r.skipped} skipped"
        if r.strict:
            stats += f", {r.strict_tools} strict, {r.not_strict} not strict"
        if r.out and isinstance(r.out.get("report"), list):
            stats += f", {len(r.out['report'])} report entries"
        if r.problems:
            stats += f"; {len(r.problems)} problem(s)"
        print(f"{status} {r.catalog.label:<{width}}  {r.label:<26} {stats}")
        if args.verbose:
            for p in r.problems:
                print(f"       {p.tool or '-'} {p.pointer or '/'}: {p.message}")
        problems.extend(r.problems)

    elapsed = time.monotonic() - started
    print(f"\n{len(runs)} conversions of {len(cats)} catalogs checked in {elapsed:.1f}s")
    if problems:
        print(f"\n{len(problems)} problem(s)  [catalog | dialect | tool | pointer in CLI output | what is wrong]:",
              file=sys.stderr)
        for p in problems:
            print("  " + str(p), file=sys.stderr)
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
