"""JSON Schemas for pack files, generated from the attrs classes the loader structures.

`pack.toml` is described by `Manifest`; every other TOML file of a pack by the
section classes of `ruleskit.schema` (and the display hints of
`ruleskit.display`). Descriptions come from the tables of docs/PACKS.md and
docs/DISPLAY.md, so editors show the same words as the reference.
"""

from __future__ import annotations

import json
import re
import types
import typing
from pathlib import Path
from typing import Any, Literal

import attrs

from .atomic import write_text_atomically
from .display import DisplayHints
from .packs import MANIFEST_KEYS, VARIANT_TABLES
from .resources import data_dir
from .schema import SECTIONS, SINGLETONS, Manifest

DIALECT = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_FILES = {"pack": "pack.schema.json", "file": "pack-file.schema.json"}
# Bookkeeping attributes the loader fills in; they are never written in a file.
_INTERNAL = {"source", "item_lines"}
_DOCS = {"PACKS.md": "the sections", "DISPLAY.md": "display"}
_HEADING = re.compile(r"^## (?:\d+\. )?(.*)$")
_SECTION_IN_HEADING = re.compile(r"\[([a-z_]+)[.\]]")
_ROW = re.compile(r"^\|(.+?)\|(.+?)\|(?:(.+?)\|)?\s*$")
_KEY = re.compile(r"`([a-z_]+)`")


def doc_descriptions() -> dict[str, dict[str, str]]:
    """Key descriptions from the reference docs: {section or "manifest": {key: text}}."""
    found: dict[str, dict[str, str]] = {}
    for doc_name in _DOCS:
        try:
            text = (data_dir("docs") / doc_name).read_text(encoding="utf-8")
        except (FileNotFoundError, OSError):
            continue
        sections: list[str] = ["display"] if doc_name == "DISPLAY.md" else []
        for line in text.splitlines():
            heading = _HEADING.match(line)
            if heading and doc_name == "PACKS.md":
                title = heading.group(1)
                sections = ["manifest"] if "pack.toml" in title else _SECTION_IN_HEADING.findall(title)
                continue
            row = _ROW.match(line)
            if not row or not sections:
                continue
            keys = _KEY.findall(row.group(1))
            if not keys or row.group(1).strip().lower() in ("key", "---"):
                continue
            meaning = _plain(row.group(2))
            default = _plain(row.group(3) or "")
            if default and default != "required":
                meaning += f" (default: {default})"
            for section in sections:
                for key in keys:
                    found.setdefault(section, {}).setdefault(key, meaning)
    return found


def _plain(text: str) -> str:
    return text.strip().replace("`", "")


class _Builder:
    """Turns attrs classes into JSON Schema definitions, collected under `$defs`."""

    def __init__(self, descriptions: dict[str, dict[str, str]]) -> None:
        self.descriptions = descriptions
        self.defs: dict[str, Any] = {}

    def ref(self, cls: type, section: str) -> dict[str, Any]:
        name = cls.__name__
        if name not in self.defs:
            self.defs[name] = {}  # reserve the name first: definitions may refer to each other
            self.defs[name] = self.object_schema(cls, section)
        return {"$ref": f"#/$defs/{name}"}

    def object_schema(self, cls: type, section: str) -> dict[str, Any]:
        hints = typing.get_type_hints(cls)
        properties: dict[str, Any] = {}
        required: list[str] = []
        notes = self.descriptions.get(section, {})
        for field in attrs.fields(cls):
            if field.name in _INTERNAL:
                continue
            schema = self.type_schema(hints[field.name], section)
            if field.name in notes:
                schema = {**schema, "description": notes[field.name]}
            properties[field.name] = schema
            if field.default is attrs.NOTHING:
                required.append(field.name)
        result: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
        if required:
            result["required"] = required
        if cls.__doc__ and not cls.__doc__.startswith(cls.__name__ + "("):
            result["description"] = " ".join(cls.__doc__.split())
        return result

    def type_schema(self, hint: Any, section: str) -> dict[str, Any]:
        origin = typing.get_origin(hint)
        args = typing.get_args(hint)
        if hint is Any:
            return {}
        if hint is bool:
            return {"type": "boolean"}
        if hint is int:
            return {"type": "integer"}
        if hint is str:
            return {"type": "string"}
        if origin is Literal:
            return {"enum": list(args)}
        if origin in (typing.Union, types.UnionType):
            options = [self.type_schema(a, section) for a in args if a is not type(None)]
            return options[0] if len(options) == 1 else {"anyOf": options}
        if origin is list:
            return {"type": "array", "items": self.type_schema(args[0], section)}
        if origin is dict:
            return {"type": "object", "additionalProperties": self.type_schema(args[1], section)}
        if attrs.has(hint):
            return self.ref(hint, section)
        raise TypeError(f"no JSON Schema for {hint!r}")


def _section_class(section: str) -> type:
    cls = SECTIONS.get(section) or SINGLETONS[section]
    return DisplayHints if section == "display" else cls


def manifest_schema(descriptions: dict[str, dict[str, str]] | None = None) -> dict[str, Any]:
    """The schema of `pack.toml`."""
    notes = descriptions if descriptions is not None else doc_descriptions()
    builder = _Builder(notes)
    body = builder.object_schema(Manifest, "manifest")
    for key in sorted(MANIFEST_KEYS - set(body["properties"])):
        # Keys the manifest reader takes itself: a variant's removals.
        body["properties"][key] = {"type": "array", "items": {"type": "string"},
                                   **({"description": notes["manifest"][key]} if key in notes.get("manifest", {})
                                      else {})}
    builder.defs["PlayerRange"]["properties"]["min"].update({"minimum": 1, "maximum": 16})
    builder.defs["PlayerRange"]["properties"]["max"].update({"minimum": 1, "maximum": 16})
    return {"$schema": DIALECT, "$id": SCHEMA_FILES["pack"], "title": "ruleskit pack manifest (pack.toml)",
            **body, "$defs": builder.defs}


def pack_file_schema(descriptions: dict[str, dict[str, str]] | None = None) -> dict[str, Any]:
    """The schema of a pack's other TOML files: sections of definitions, and a variant's tables."""
    builder = _Builder(descriptions if descriptions is not None else doc_descriptions())
    sections: dict[str, Any] = {}
    for section in SECTIONS:
        sections[section] = {"type": "object", "additionalProperties": builder.ref(_section_class(section), section),
                             "description": f"named definitions: [{section}.NAME]"}
    for section in SINGLETONS:
        sections[section] = builder.ref(_section_class(section), section)
    properties: dict[str, Any] = dict(sections)
    for table in VARIANT_TABLES:
        # A variant replaces whole definitions, or updates some of their keys (a deep merge).
        inner = {s: (sections[s] if table == "replace" else
                     {"type": "object", "additionalProperties": {"type": "object"}} if s in SECTIONS else
                     {"type": "object"}) for s in sections}
        properties[table] = {"type": "object", "properties": inner, "additionalProperties": False,
                             "description": f"in a variant: [{table}.SECTION.NAME] {table}s the base's definition"}
    properties["remove"] = {"type": "array", "items": {"type": "string", "pattern": r"^[a-z_]+(\.[^.]+)*$"},
                            "description": "in a variant: definitions of the base to drop, as \"SECTION.NAME\""}
    return {"$schema": DIALECT, "$id": SCHEMA_FILES["file"], "title": "ruleskit pack file (definitions)",
            "type": "object", "properties": properties, "additionalProperties": False, "$defs": builder.defs}


def schemas() -> dict[str, dict[str, Any]]:
    """Every schema, by file name."""
    notes = doc_descriptions()
    return {SCHEMA_FILES["pack"]: manifest_schema(notes), SCHEMA_FILES["file"]: pack_file_schema(notes)}


def write_schemas(folder: str | Path) -> list[Path]:
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in schemas().items():
        path = out / name
        # Beside the file, then renamed over it: a link of that name (a cloned repository may ship one) is
        # replaced, never written through to wherever it points.
        write_text_atomically(path, json.dumps(schema, indent=2, ensure_ascii=False) + "\n")
        written.append(path)
    return written
