"""What one pack changes relative to another, definition by definition.

Two packs are compared by their merged definitions (so a variant's whole
chain counts): TOML definitions by section and name (and a kind's items one
by one), rule-language definitions by name. Each difference is an addition, a
removal or a replacement, with both versions of a replaced definition.
"""

from __future__ import annotations

from typing import Any

import attrs
import tomli_w

from .packs import PackReader, PackSource, RawDef


@attrs.frozen
class Difference:
    change: str  # "added", "removed", "replaced"
    key: str  # e.g. "actions.move", "kinds.card.items.ace", "hook lucky"
    before: str | None
    after: str | None
    where: str | None  # where the variant's version is written (file:line)


def diff_packs(base_ref: str, variant_ref: str) -> tuple[PackSource, PackSource, list[Difference]]:
    base = PackReader().read(base_ref)
    variant = PackReader().read(variant_ref)
    return base, variant, diff_sources(base, variant)


def diff_sources(base: PackSource, variant: PackSource) -> list[Difference]:
    result: list[Difference] = []
    keys = list(base.defs) + [k for k in variant.defs if k not in base.defs]
    for key in keys:
        old, new = base.defs.get(key), variant.defs.get(key)
        label = f"{key[0]}.{key[1]}" if key[1] else key[0]
        if key[0] == "kinds" and old is not None and new is not None:
            result.extend(_kind_changes(label, old, new))
        elif old is None and new is not None:
            result.append(Difference("added", label, None, _toml(new.data), _where(new)))
        elif new is None and old is not None:
            result.append(Difference("removed", label, _toml(old.data), None, None))
        elif old is not None and new is not None and old.data != new.data:
            before, after = _changed_keys(old.data, new.data)
            result.append(Difference("replaced", label, _toml(before), _toml(after), _where(new)))
    names = list(base.definitions) + [k for k in variant.definitions if k not in base.definitions]
    for key in names:
        old_def, new_def = base.definitions.get(key), variant.definitions.get(key)
        kind = key[0] if key[0] == "hook" else (new_def or old_def).kind  # type: ignore[union-attr]
        label = f"{kind} {key[1]}"
        if old_def is None and new_def is not None:
            result.append(Difference("added", label, None, new_def.text, new_def.location))
        elif new_def is None and old_def is not None:
            result.append(Difference("removed", label, old_def.text, None, None))
        elif old_def is not None and new_def is not None and old_def.text.strip() != new_def.text.strip():
            result.append(Difference("replaced", label, old_def.text, new_def.text, new_def.location))
    return result


def _kind_changes(label: str, old: RawDef, new: RawDef) -> list[Difference]:
    result = []
    old_rest = {k: v for k, v in old.data.items() if k != "items"}
    new_rest = {k: v for k, v in new.data.items() if k != "items"}
    if old_rest != new_rest:
        before, after = _changed_keys(old_rest, new_rest)
        result.append(Difference("replaced", label, _toml(before), _toml(after), _where(new)))
    old_items, new_items = old.data.get("items", {}), new.data.get("items", {})
    for item in list(old_items) + [i for i in new_items if i not in old_items]:
        key = f"{label}.items.{item}"
        before, after = old_items.get(item), new_items.get(item)
        source = new.item_sources.get(item)
        where = f"{source[0].path}:{source[0].line_of(source[1])}" if source else None
        if before is None:
            result.append(Difference("added", key, None, _toml(after), where))
        elif after is None:
            result.append(Difference("removed", key, _toml(before), None, None))
        elif before != after:
            result.append(Difference("replaced", key, _toml(before), _toml(after), where))
    return result


def _changed_keys(before: Any, after: Any) -> tuple[Any, Any]:
    """Only the keys that differ, so an update of one key reads as one line."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return before, after
    keys = [k for k in before if before.get(k) != after.get(k)] + [k for k in after if k not in before]
    return ({k: before[k] for k in keys if k in before}, {k: after[k] for k in keys if k in after})


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
