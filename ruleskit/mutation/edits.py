"""Mutants as data: text edits of a pack's files, applied to a copy of the pack."""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import attrs

from ..errors import PackError
from ..tomlfile import read_toml


@attrs.define(frozen=True)
class Edit:
    """In `file` (relative to the pack folder), the text `old`, which occurs exactly once, becomes `new`.

    `at` (a character offset) pins down which occurrence when a generated edit's text is not unique.
    """

    file: str
    old: str
    new: str
    at: int | None = None


@attrs.define(frozen=True)
class Mutant:
    """A small change of a pack: what it breaks, where, and the edits that make it."""

    id: str
    description: str
    edits: tuple[Edit, ...]
    rule: str = ""
    operator: str = ""
    file: str = ""
    line: int = 0

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}" if self.file else (self.edits[0].file if self.edits else "")


def apply_edits(root: Path, edits: tuple[Edit, ...] | list[Edit]) -> None:
    """Apply edits to the files of a pack folder in place; an edit whose text is not found once is an error."""
    for edit in edits:
        path = root / edit.file
        text = path.read_text(encoding="utf-8")
        if edit.at is not None:
            if text[edit.at:edit.at + len(edit.old)] != edit.old:
                raise PackError(f"mutant edit: {edit.old!r} is not at offset {edit.at}", file=str(path))
            start = edit.at
        else:
            found = text.count(edit.old)
            if found != 1:
                raise PackError(f"mutant edit: {edit.old!r} occurs {found} times, not once", file=str(path))
            start = text.index(edit.old)
        path.write_text(text[:start] + edit.new + text[start + len(edit.old):], encoding="utf-8")


_NAME_LINE = re.compile(r'^name\s*=\s*"[^"\n]*"', re.MULTILINE)
_EXTENDS_LINE = re.compile(r'^extends\s*=\s*"([^"\n]*)"', re.MULTILINE)


def mutant_copy(pack_root: Path, mutant: Mutant, where: Path | None = None, name: str | None = None) -> Path:
    """A copy of the pack folder with the mutant applied, in a new temporary folder (or `where`).

    The copy keeps the pack's name unless `name` is given: a mutant is a buggy version of the same
    pack, so the pack's own scenario tests (which name their pack) still apply to it. A relative
    `extends` is made absolute so the copy finds its base.
    """
    target = Path(tempfile.mkdtemp(prefix="ruleskit-mutant-")) if where is None else where
    copy = target / pack_root.name
    shutil.copytree(pack_root, copy, ignore=shutil.ignore_patterns("__pycache__", "*.jsonl"))
    manifest = copy / "pack.toml"
    text = manifest.read_text(encoding="utf-8")
    if name is not None:
        text = _NAME_LINE.sub(f'name = "{name}"', text, count=1)
    extends = _EXTENDS_LINE.search(text)
    if extends and ("/" in extends.group(1) or extends.group(1).startswith(".")):
        base = (pack_root / extends.group(1)).resolve()
        text = text[:extends.start(1)] + base.as_posix() + text[extends.end(1):]
    manifest.write_text(text, encoding="utf-8")
    apply_edits(copy, mutant.edits)
    return copy


def load_corpus(path: str | Path) -> list[Mutant]:
    """A hand-written corpus: a TOML file of [[mutant]] tables (id, description, rule, edits)."""
    doc = read_toml(Path(path), str(path))
    entries: list[dict[str, Any]] = doc.data.get("mutant", [])
    mutants = []
    for index, entry in enumerate(entries):
        try:
            edits = tuple(Edit(e["file"], e["old"], e["new"]) for e in entry["edits"])
            mutants.append(Mutant(entry["id"], entry["description"], edits, rule=entry.get("rule", ""),
                                  operator="hand-written", file=edits[0].file))
        except (KeyError, TypeError) as exc:
            raise PackError(f"mutant {index + 1}: needs id, description and edits of file, old, new ({exc})",
                            file=str(path)) from None
    return mutants
