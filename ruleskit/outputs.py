"""Files and folders a command will write, checked before any long run so that a mistyped path costs
nothing but an error."""

from __future__ import annotations

from pathlib import Path

from .errors import PackError


def check_output_file(path: str | Path, what: str) -> Path:
    """A file a command will write: not a folder, in a folder that exists."""
    target = Path(path)
    if target.is_dir():
        raise PackError(f"{what} '{target}' is a folder; name a file")
    if not target.parent.is_dir():
        raise PackError(f"{what} '{target}': the folder '{target.parent}' does not exist")
    return target


def check_output_folder(path: str | Path, what: str) -> Path:
    """A folder a command will write files into: a folder, or a name free to make one under a folder that exists."""
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise PackError(f"{what} '{target}' is a file, not a folder")
    if not target.exists() and not target.parent.is_dir():
        raise PackError(f"{what} '{target}': the folder '{target.parent}' does not exist")
    return target
