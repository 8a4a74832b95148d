"""Mutants as data: text edits of a pack's files, applied to a copy of the pack."""

from __future__ import annotations

import json
import os.path
import re
import shutil
import tempfile
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

import attrs

from ..errors import PackError
from ..packs import find_base
from ..tomlfile import TomlDoc, read_text, read_toml
from .packcopy import copy_pack_folder


@attrs.define(frozen=True)
class Edit:
    """In `file` (relative to the pack folder), the text `old`, which occurs exactly once, becomes `new`.

    `at` (a character offset) pins down which occurrence when a generated edit's text is not unique.
    `source` and `line` say where a hand-written edit is written (its corpus file and line), for errors.
    """

    file: str
    old: str
    new: str
    at: int | None = None
    source: str = ""
    line: int | None = None


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


# ---------------------------------------------------------------- applying edits


def edit_path_problem(name: str) -> str | None:
    """What keeps `name` from naming a file of the pack folder, if anything.

    An edit's file is a relative path that stays inside the folder as written:
    no absolute path, no drive, no `..`, not the folder itself.
    """
    if not name.strip() or "\x00" in name:
        return "an empty file name" if "\x00" not in name else "a NUL byte in the file name"
    if PurePosixPath(name).is_absolute() or PureWindowsPath(name).anchor:
        return f"'{name}' is an absolute path: name a file of the pack, relative to its folder"
    parts = re.split(r"[\\/]", name)
    if ".." in parts:
        return f"'{name}' climbs out of the pack folder with '..'"
    if all(part in ("", ".") for part in parts):
        return f"'{name}' names the pack folder, not a file in it"
    return None


def _edit_error(edit: Edit, number: int, message: str) -> PackError:
    """An error about one edit, at the corpus line that wrote it (else at the file it edits)."""
    return PackError(f"mutant edit {number} of '{edit.file}': {message}", file=edit.source or edit.file,
                     line=edit.line if edit.source else None)


def edited_file(root: Path, edit: Edit, number: int = 1) -> Path:
    """The file an edit changes: inside the folder `root`, with links followed, or an error."""
    problem = edit_path_problem(edit.file)
    if problem is not None:
        raise _edit_error(edit, number, problem)
    folder = root.resolve()
    try:
        path = (folder / edit.file).resolve()
    except (OSError, RuntimeError, ValueError):
        raise _edit_error(edit, number, "not a usable file name") from None
    if path == folder:
        raise _edit_error(edit, number, "a link leads to the pack folder, not a file in it")
    if folder not in path.parents:
        raise _edit_error(edit, number, "a link leads out of the pack folder")
    return path


def apply_edits(root: Path, edits: tuple[Edit, ...] | list[Edit]) -> None:
    """Apply edits to the files of a pack folder in place; an edit whose text is not found once is an error.

    Every edited file is a regular file inside `root` (links followed): a mutant never writes elsewhere.
    """
    for number, edit in enumerate(edits, start=1):
        path = edited_file(root, edit, number)
        try:
            text = read_text(path, edit.file)
        except PackError as exc:
            raise _edit_error(edit, number, exc.message) from None
        if edit.at is not None:
            if text[edit.at:edit.at + len(edit.old)] != edit.old:
                raise _edit_error(edit, number, f"{edit.old!r} is not at offset {edit.at}")
            start = edit.at
        else:
            found = text.count(edit.old)
            if found != 1:
                raise _edit_error(edit, number, f"{edit.old!r} occurs {found} times, not once")
            start = text.index(edit.old)
        path.write_text(text[:start] + edit.new + text[start + len(edit.old):], encoding="utf-8")


# ---------------------------------------------------------------- the copy of the pack


_NAME_LINE = re.compile(r'^name\s*=\s*"[^"\n]*"', re.MULTILINE)
_EXTENDS_LINE = re.compile(r'''^extends\s*=\s*("(?:[^"\\\n]|\\.)*"|'[^'\n]*')''', re.MULTILINE)


def mutant_copy(pack_root: Path, mutant: Mutant, where: Path | None = None, name: str | None = None) -> Path:
    """A copy of the pack folder with the mutant applied, in a new temporary folder (or `where`).

    The copy keeps the pack's name unless `name` is given: a mutant is a buggy version of the same
    pack, so the pack's own scenario tests (which name their pack) still apply to it. A relative
    `extends` is rewritten relative to the copy's folder so the copy finds the same base. The copy
    never reads outside the pack (see `packcopy`), and whatever was made is removed again when the
    copy or an edit fails.
    """
    target = Path(tempfile.mkdtemp(prefix="ruleskit-mutant-")) if where is None else where
    copy = target / pack_root.name
    with removed_on_failure(target if where is None else None):
        copy.mkdir(parents=True)  # under `where`, a folder of that name already there is an error, not replaced
    with removed_on_failure(target if where is None else copy):
        copy_pack_folder(pack_root, copy)
        _rewrite_manifest(pack_root, copy, name)
        apply_edits(copy, mutant.edits)
    return copy


@contextmanager
def removed_on_failure(folder: Path | None) -> Iterator[None]:
    """Remove `folder` (if given) when the block raises, so a failed copy leaves nothing behind."""
    try:
        yield
    except BaseException:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
        raise


def _rewrite_manifest(pack_root: Path, copy: Path, name: str | None) -> None:
    """The copy's pack.toml: renamed if asked, and its `extends` naming the same base from the copy's folder.

    A built-in pack's name stays as written; a relative path is rewritten relative to the copy's folder
    (the loader refuses absolute paths), and the loader must find the same base from it.
    """
    manifest = copy / "pack.toml"
    text = read_text(manifest, "pack.toml")
    if name is not None:
        text = _NAME_LINE.sub(f'name = "{name}"', text, count=1)
    extends = _EXTENDS_LINE.search(text)
    try:
        ref = tomllib.loads(extends.group(0)).get("extends") if extends else None
    except tomllib.TOMLDecodeError:
        ref = None
    if extends and isinstance(ref, str) and ("/" in ref or ref.startswith(".")):
        base = find_base(ref, pack_root)
        try:
            rewritten = Path(os.path.relpath(base, copy.resolve())).as_posix()
            found = find_base(rewritten, copy)
        except (PackError, ValueError) as exc:
            raise PackError(f"the mutant copy in {copy} cannot name its base {base} by a relative path: {exc}",
                            hint="set TMPDIR to a folder nearer the root") from None
        if found != base:
            raise PackError(f"the mutant copy in {copy} finds the base {found}, not {base}",
                            hint="set TMPDIR to a folder without links")
        text = text[:extends.start(1)] + json.dumps(rewritten, ensure_ascii=False) + text[extends.end(1):]
    manifest.write_text(text, encoding="utf-8")


# ---------------------------------------------------------------- hand-written corpora


def load_corpus(path: str | Path) -> list[Mutant]:
    """A hand-written corpus: a TOML file of [[mutant]] tables (id, description, rule, edits).

    Every value is checked for its type, and every edit's file must be a relative path inside the
    pack: a mistake is an error at its line of the corpus.
    """
    doc = read_toml(Path(path), str(path))
    entries = doc.data.get("mutant", [])
    if not isinstance(entries, list):
        raise doc.error(("mutant",), "'mutant' should be a list of [[mutant]] tables")
    return [_corpus_mutant(doc, index, entry) for index, entry in enumerate(entries)]


def _corpus_mutant(doc: TomlDoc, index: int, entry: Any) -> Mutant:
    keypath = ("mutant", str(index))
    label = f"mutant {index + 1}"
    if not isinstance(entry, dict):
        raise doc.error(keypath, f"{label} should be a table with id, description and edits")
    for key in ("id", "description"):
        if not isinstance(entry.get(key), str) or not entry[key].strip():
            raise doc.error(keypath + (key,), f"{label} needs '{key}', a non-empty string")
    label = f"mutant '{entry['id']}'"
    rule = entry.get("rule", "")
    if not isinstance(rule, str):
        raise doc.error(keypath + ("rule",), f"{label}: 'rule' should be a string")
    raw_edits = entry.get("edits")
    if not isinstance(raw_edits, list) or not raw_edits:
        raise doc.error(keypath + ("edits",), f"{label} needs 'edits', a non-empty list of {{ file, old, new }}")
    edits = tuple(_corpus_edit(doc, keypath + ("edits",), f"{label}, edit {number}", raw)
                  for number, raw in enumerate(raw_edits, start=1))
    return Mutant(entry["id"], entry["description"], edits, rule=rule, operator="hand-written", file=edits[0].file)


def _corpus_edit(doc: TomlDoc, keypath: tuple[str, ...], label: str, raw: Any) -> Edit:
    if not isinstance(raw, dict):
        raise doc.error(keypath, f"{label} should be a table {{ file, old, new }}")
    for key in ("file", "old", "new"):
        if not isinstance(raw.get(key), str):
            raise doc.error(keypath, f"{label} needs '{key}', a string")
    if not raw["old"]:
        raise doc.error(keypath, f"{label}: 'old' is empty; it is the text the edit replaces")
    problem = edit_path_problem(raw["file"])
    if problem is not None:
        raise doc.error(keypath, f"{label}: {problem}")
    return Edit(raw["file"], raw["old"], raw["new"], source=doc.path, line=doc.line_of(keypath))
