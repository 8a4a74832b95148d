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


def check_fresh_folder(path: str | Path, what: str, pattern: str, kind: str) -> Path:
    """A folder a command will write `pattern` files into that holds none yet: the files of an earlier
    run would be overwritten by this one's, or left beside them as if this run had written them."""
    target = check_output_folder(path, what)
    if target.is_dir():
        earlier = min(target.glob(pattern), default=None)
        if earlier is not None:
            raise PackError(f"{what} '{target}' already holds {kind} of an earlier run ({earlier.name})",
                            hint="name another folder, or empty this one")
    return target
