"""mkdocs hooks of the manual: the HTTP API reference (reference/http-api.md) is written from the server's
OpenAPI description, docs/reference/openapi.json (tools/openapi.py writes it; tests/test_manual.py checks it
is the server's), so the manual works offline and never describes another version of the API."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SPEC = Path(__file__).parent / "reference" / "openapi.json"
MARK = "<!-- openapi -->"
METHODS = ("get", "post", "put", "patch", "delete")


def cell(text: Any) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def type_of(schema: dict[str, Any]) -> str:
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        return f"[{name}](#schema-{name.lower()})"
    if "anyOf" in schema:
        return " or ".join(type_of(s) for s in schema["anyOf"])
    if "oneOf" in schema:
        return " or ".join(type_of(s) for s in schema["oneOf"])
    if "enum" in schema:
        return " · ".join(f"`{v}`" for v in schema["enum"])
    if "const" in schema:
        return f"`{schema['const']}`"
    kind = schema.get("type", "any")
    if kind == "array":
        return f"list of {type_of(schema.get('items', {}))}"
    return str(kind)


def bounds(schema: dict[str, Any]) -> str:
    parts = []
    for key, word in (("minimum", "≥"), ("exclusiveMinimum", ">"), ("maximum", "≤"), ("exclusiveMaximum", "<"),
                      ("minLength", "length ≥"), ("maxLength", "length ≤"), ("maxItems", "items ≤")):
        if key in schema:
            parts.append(f"{word} {schema[key]}")
    if "default" in schema:
        parts.append(f"default `{json.dumps(schema['default'])}`")
    return ", ".join(parts)


def schema_table(name: str, schema: dict[str, Any]) -> list[str]:
    out = [f"### {name} {{#schema-{name.lower()}}}", ""]
    if schema.get("description"):
        out += [cell(schema["description"]), ""]
    props = schema.get("properties", {})
    if not props:
        out += [f"Type: {type_of(schema)}.", ""]
        return out
    required = set(schema.get("required", ()))
    out += ["| field | type | | description |", "|---|---|---|---|"]
    for field, sub in props.items():
        flag = "required" if field in required else bounds(sub)
        if field in required and bounds(sub):
            flag += ", " + bounds(sub)
        out.append(f"| `{field}` | {type_of(sub)} | {cell(flag)} | {cell(sub.get('description', ''))} |")
    return out + [""]


def render(spec: dict[str, Any]) -> str:
    groups: dict[str, list[tuple[str, str, dict[str, Any]]]] = {}
    for path, item in spec["paths"].items():
        for method in METHODS:
            op = item.get(method)
            if op is not None:
                groups.setdefault((op.get("tags") or ["other"])[0], []).append((method, path, op))
    out: list[str] = []
    for tag in sorted(groups):
        out += [f"## {tag.capitalize()}", ""]
        for method, path, op in groups[tag]:
            out += [f"### `{method.upper()} {path}`", ""]
            if op.get("summary"):
                out += [f"**{cell(op['summary'])}**", ""]
            if op.get("description"):
                out += [op["description"].strip(), ""]
            params = op.get("parameters", [])
            if params:
                out += ["| parameter | in | type | | description |", "|---|---|---|---|---|"]
                for p in params:
                    s = p.get("schema", {})
                    flag = "required" if p.get("required") else bounds(s)
                    out.append(f"| `{p['name']}` | {p['in']} | {type_of(s)} | {cell(flag)} | "
                               f"{cell(p.get('description', s.get('description', '')))} |")
                out.append("")
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            if body:
                out += [f"Body: {type_of(body)}.", ""]
            codes = op.get("responses", {})
            if codes:
                out += ["| status | meaning |", "|---|---|"]
                for code in sorted(codes):
                    r = codes[code]
                    schema = r.get("content", {}).get("application/json", {}).get("schema")
                    what = cell(r.get("description", ""))
                    if schema and code.startswith("2"):
                        what += f" ({type_of(schema)})"
                    out.append(f"| {code} | {what} |")
                out.append("")
    schemas = spec.get("components", {}).get("schemas", {})
    if schemas:
        out += ["## Schemas", ""]
        for name in sorted(schemas):
            out += schema_table(name, schemas[name])
    return "\n".join(out)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if MARK in markdown:
        return markdown.replace(MARK, render(json.loads(SPEC.read_text(encoding="utf-8"))))
    return markdown
