"""Copying a pack folder for a mutant without reading outside it.

The copy never follows a link: a link that leads to a place inside the pack
folder is made again in the copy, relative, so it leads to the same place of
the copy; a link that leads out of the folder, or round in a loop, is left out
(the pack loader refuses to read through such a link anyway). Only folders and
regular files no larger than a pack file are copied, and the whole copy is
bounded, so a folder that also holds a data set, a repository or a link to `/`
costs an error, not the disk.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

from ..errors import PackError
from ..limits import MAX_FILE_BYTES
from ..packs import display_path

# Bounds of one mutant's copy: far above a pack (256 files, 4 MB) and its scenario tests.
MAX_COPY_ENTRIES = 5_000
MAX_COPY_BYTES = 64_000_000

# Left out of the copy: what Python and the test runs leave in a pack folder, and hidden folders (a
# repository's `.git`, a `.venv`), which hold no pack file.
SKIPPED_FOLDERS = frozenset({"__pycache__", "node_modules"})
SKIPPED_SUFFIXES = (".jsonl",)


class PackFolderTooLarge(PackError):
    """The pack folder holds more than a mutant's copy may take: no mutant of it can be tried."""


class _Budget:
    """What the copy has taken so far; past a bound, an error naming the pack folder."""

    def __init__(self, source: Path) -> None:
        self.source = source
        self.entries = 0
        self.bytes = 0

    def take(self, size: int = 0) -> None:
        self.entries += 1
        self.bytes += size
        if self.entries > MAX_COPY_ENTRIES:
            self._refuse(f"more than {MAX_COPY_ENTRIES} files and folders")
        if self.bytes > MAX_COPY_BYTES:
            self._refuse(f"more than {MAX_COPY_BYTES} bytes")

    def _refuse(self, what: str) -> None:
        raise PackFolderTooLarge(f"the pack folder holds {what}, too much to copy for each mutant: "
                                 "keep other files out of it", file=display_path(self.source))


def copy_pack_folder(source: Path, copy: Path) -> None:
    """Copy the pack folder `source` into the empty folder `copy`, staying inside `source`."""
    root = source.resolve()
    budget = _Budget(root)
    pending = [Path()]
    while pending:
        folder = pending.pop()
        for name in sorted(os.listdir(root / folder)):
            relative = folder / name
            if _copy_entry(root, copy, relative, budget):
                pending.append(relative)


def _copy_entry(root: Path, copy: Path, relative: Path, budget: _Budget) -> bool:
    """Copy one entry of the folder; whether it is a folder whose entries are still to copy."""
    place = root / relative
    info = os.lstat(place)
    if stat.S_ISLNK(info.st_mode):
        _copy_link(root, copy, relative, budget)
        return False
    if stat.S_ISDIR(info.st_mode):
        if relative.name in SKIPPED_FOLDERS or relative.name.startswith("."):
            return False
        budget.take()
        (copy / relative).mkdir()
        return True
    if stat.S_ISREG(info.st_mode) and info.st_size <= MAX_FILE_BYTES and relative.suffix not in SKIPPED_SUFFIXES:
        budget.take(info.st_size)
        shutil.copyfile(place, copy / relative, follow_symlinks=False)
    # Pipes, devices, sockets and files too large for a pack to read are left out: no load reads them.
    return False


def _copy_link(root: Path, copy: Path, relative: Path, budget: _Budget) -> None:
    """Make a link of the pack again in the copy if it leads inside the pack; leave it out otherwise."""
    try:
        target = (root / relative).resolve()
    except (OSError, RuntimeError, ValueError):
        return  # a loop of links: nothing can be read through it
    if target != root and root not in target.parents:
        return  # a link out of the pack: the loader refuses it, so the copy has no use for it
    budget.take()
    place = copy / relative
    counterpart = copy / target.relative_to(root)
    try:
        os.symlink(os.path.relpath(counterpart, place.parent), place)
    except OSError:
        # Where links cannot be made (Windows without the right), a linked file is copied instead.
        if target.is_file() and target.stat().st_size <= MAX_FILE_BYTES:
            budget.take(target.stat().st_size)
            shutil.copyfile(target, place)
