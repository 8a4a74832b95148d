"""Files and folders a command will write, checked before any long run so that a mistyped path costs
nothing but an error."""

from __future__ import annotations

import os
import secrets
from collections.abc import Sequence
from pathlib import Path

from .errors import PackError


def _check_writable(folder: Path, what: str, target: Path) -> None:
    """Make and remove a file in `folder`, as writing through a file beside the target will: permissions
    alone do not say (root may write anywhere by them, yet not in /proc or on a read-only mount)."""
    probe = folder / f".ruleskit-probe.{secrets.token_hex(6)}.part"
    try:
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except OSError as exc:
        raise PackError(f"{what} '{target}': cannot write in the folder '{folder}' ({exc.strerror or exc})") from None
    probe.unlink(missing_ok=True)


PACK_SUFFIXES = (".toml", ".rk")
"""The files a pack folder is read from (the manifest, its files, its scenario tests)."""


def check_not_input(target: Path, what: str, inputs: Sequence[Path]) -> None:
    """Refuse an output that is one of the command's input files, or a .toml or .rk file in an input folder
    (a pack's, or a base's it extends): it would overwrite what the command reads, or be read as part of the
    pack next time. Other files beside a pack's (a log, a summary) are the user's to write there."""
    try:
        resolved = target.resolve()
    except (OSError, ValueError, RuntimeError):
        return  # the checks that open the path say what is wrong with it
    for source in inputs:
        try:
            read = source.resolve()
        except (OSError, ValueError, RuntimeError):
            continue
        if resolved == read:
            raise PackError(f"{what} '{target}' is a file this command reads; name another file")
        if resolved.suffix.lower() in PACK_SUFFIXES and read.is_dir() and read in resolved.parents:
            raise PackError(f"{what} '{target}' would write a {resolved.suffix} file into the pack folder "
                            f"'{read}', whose .toml and .rk files this command reads; name another file")


def check_output_file(path: str | Path, what: str, inputs: Sequence[Path] = ()) -> Path:
    """A file a command will write: not a folder, not one of its `inputs` nor a pack file of an input folder
    (`check_not_input`), in a folder that exists and takes new files."""
    target = Path(path)
    check_not_input(target, what, inputs)
    if target.is_dir():
        raise PackError(f"{what} '{target}' is a folder; name a file")
    if not target.parent.is_dir():
        raise PackError(f"{what} '{target}': the folder '{target.parent}' does not exist")
    if target.exists() and not target.is_file():  # a device or a pipe (/dev/stdout) is written straight through
        return target
    if target.exists() and not os.access(target, os.W_OK):
        raise PackError(f"{what} '{target}': the file cannot be written (no permission)")
    _check_writable(target.parent, what, target)
    return target


def check_output_folder(path: str | Path, what: str) -> Path:
    """A folder a command will write files into: a folder, or a name free to make one under a folder that exists."""
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise PackError(f"{what} '{target}' is a file, not a folder")
    if not target.exists() and not target.parent.is_dir():
        raise PackError(f"{what} '{target}': the folder '{target.parent}' does not exist")
    # A folder yet to be made is made in its parent.
    _check_writable(target if target.is_dir() else target.parent, what, target)
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
