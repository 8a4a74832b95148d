"""What one pack changes relative to another, definition by definition.

Two packs are compared by their merged definitions (so a variant's whole
chain counts): TOML definitions by section and name (and a kind's items one
by one), rule-language definitions by name. Each difference is an addition, a
removal or a replacement, with both versions of a replaced definition.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import attrs
import tomli_w

from .lang.compiler import Definition
from .packs import PackReader, PackSource, RawDef, display_path
from .textlines import file_lines


@attrs.frozen
class Difference:
    change: str  # "added", "removed", "replaced"
    key: str  # e.g. "actions.move", "kinds.card.items.ace", "hook lucky"
    before: str | None
    after: str | None
    where: str | None  # where the variant's version is written (file:line)
    base_where: str | None = None  # where the base's version is written (file:line)
    note: str | None = None  # the comment written just above the variant's version: why it changed


def diff_packs(base_ref: str, variant_ref: str) -> tuple[PackSource, PackSource, list[Difference]]:
    base = PackReader().read(base_ref)
    variant = PackReader().read(variant_ref)
    return base, variant, diff_sources(base, variant)


def diff_sources(base: PackSource, variant: PackSource) -> list[Difference]:
    result: list[Difference] = _player_range_change(base, variant)
    keys = list(base.defs) + [k for k in variant.defs if k not in base.defs]
    for key in keys:
        old, new = base.defs.get(key), variant.defs.get(key)
        label = f"{key[0]}.{key[1]}" if key[1] else key[0]
        if key[0] == "kinds" and old is not None and new is not None:
            result.extend(_kind_changes(label, old, new))
        elif old is None and new is not None:
            result.append(Difference("added", label, None, _toml(new.data), _where(new), None, _raw_note(new)))
        elif new is None and old is not None:
            result.append(Difference("removed", label, _toml(old.data), None, None, _where(old)))
        elif old is not None and new is not None and old.data != new.data:
            before, after = _changed_keys(old.data, new.data)
            result.append(Difference("replaced", label, _toml(before), _toml_after(before, after), _where(new),
                                     _where(old), _raw_note(new)))
    names = list(base.definitions) + [k for k in variant.definitions if k not in base.definitions]
    for key in names:
        old_def, new_def = base.definitions.get(key), variant.definitions.get(key)
        kind = key[0] if key[0] == "hook" else (new_def or old_def).kind  # type: ignore[union-attr]
        label = f"{kind} {key[1]}"
        if old_def is None and new_def is not None:
            result.append(Difference("added", label, None, _text(new_def), new_def.location, None,
                                     _definition_note(new_def)))
        elif new_def is None and old_def is not None:
            result.append(Difference("removed", label, _text(old_def), None, None, old_def.location))
        elif old_def is not None and new_def is not None and _text(old_def) != _text(new_def):
            result.append(Difference("replaced", label, _text(old_def), _text(new_def), new_def.location,
                                     old_def.location, _definition_note(new_def)))
    return result


def _player_range_change(base: PackSource, variant: PackSource) -> list[Difference]:
    """The players a pack is for: a variant's pack.toml sets them outside every definition, so a changed range
    was no difference at all."""
    old, new = base.manifest.players, variant.manifest.players
    if (old.min, old.max) == (new.min, new.max):
        return []
    return [Difference("replaced", "players", f"players = {{ min = {old.min}, max = {old.max} }}",
                       f"players = {{ min = {new.min}, max = {new.max} }}", display_path(variant.root / "pack.toml"),
                       display_path(base.root / "pack.toml"))]


def _text(definition: Definition) -> str:
    """A definition as written, without the `replace` that marks it in a variant (so versions compare)."""
    text = definition.text.strip()
    return text.removeprefix("replace").lstrip() if definition.replace else text


@functools.lru_cache(maxsize=4)
def _lines(text: str) -> list[str]:
    """The lines of a file's text, split once for all its definitions: split for each, a variant replacing 20,000
    definitions took 46 s to compare."""
    return file_lines(text)


def comment_above(text: str, line: int | None) -> str | None:
    """The block of `#` comment lines just above line `line` (1-based) of `text`, without the marks."""
    if not line:
        return None
    lines = _lines(text)
    found: list[str] = []
    index = line - 2
    while 0 <= index < len(lines) and lines[index].lstrip().startswith("#"):
        found.append(lines[index].lstrip()[1:].strip())
        index -= 1
    return "\n".join(reversed(found)) or None


def _definition_note(definition: Definition) -> str | None:
    try:
        text = Path(definition.origin.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return comment_above(text, definition.line)


def _raw_note(raw: RawDef) -> str | None:
    return comment_above(raw.doc.text, raw.source.line)


def _kind_changes(label: str, old: RawDef, new: RawDef) -> list[Difference]:
    result = []
    old_rest = {k: v for k, v in old.data.items() if k != "items"}
    new_rest = {k: v for k, v in new.data.items() if k != "items"}
    if old_rest != new_rest:
        before, after = _changed_keys(old_rest, new_rest)
        result.append(Difference("replaced", label, _toml(before), _toml_after(before, after), _where(new),
                                 _where(old), _raw_note(new)))
    old_items, new_items = old.data.get("items", {}), new.data.get("items", {})
    for item in list(old_items) + [i for i in new_items if i not in old_items]:
        key = f"{label}.items.{item}"
        before, after = old_items.get(item), new_items.get(item)
        where, note = _item_source(new, item)
        base_where, _ = _item_source(old, item)
        if before is None:
            result.append(Difference("added", key, None, _toml(after), where, None, note))
        elif after is None:
            result.append(Difference("removed", key, _toml(before), None, None, base_where))
        elif before != after:
            result.append(Difference("replaced", key, _toml(before), _toml(after), where, base_where, note))
    return result


def _item_source(raw: RawDef, item: str) -> tuple[str | None, str | None]:
    """Where an item of a kind is written, and the comment above it."""
    source = raw.item_sources.get(item)
    if source is None:
        return None, None
    doc, keypath = source
    line = doc.line_of(keypath)
    return f"{doc.path}:{line}", comment_above(doc.text, line)


def _changed_keys(before: Any, after: Any) -> tuple[Any, Any]:
    """Only the keys that differ, so an update of one key reads as one line."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return before, after
    keys = [k for k in before if before.get(k) != after.get(k)] + [k for k in after if k not in before]
    return ({k: before[k] for k in keys if k in before}, {k: after[k] for k in keys if k in after})


def _toml_after(before: Any, after: Any) -> str:
    """The new version of changed keys; a key the new version no longer has is named as dropped."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return _toml(after)
    dropped = [f"# {key}: dropped" for key in before if key not in after]
    kept = _toml(after) if after or not dropped else ""
    return "\n".join(([kept] if kept else []) + dropped)


def _where(raw: RawDef) -> str:
    source = raw.source
    return f"{source.file}:{source.line}" if source.line else source.file


def _toml(data: Any) -> str:
    if isinstance(data, dict):
        if not data:
            return "(nothing)"
        try:
            return tomli_w.dumps(data).strip()
        except (TypeError, ValueError):
            return repr(data)
    return repr(data)
