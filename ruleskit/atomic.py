"""Writing a file whole or not at all: a save or a log that fails to be written (a full disk, a quota)
leaves the file that was there before as it was."""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def write_text_atomically(path: str | Path, text: str) -> None:
    """Write `text` to `path` through a file beside it, put in its place only once it is written in full.

    The file beside it is made as `open` makes a file (its mode from the umask), under a name no other
    writer picks."""
    target = Path(path)
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(6)}.part")
    try:
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as exc:  # the temporary name means nothing to the user: name the file they asked for
        raise OSError(exc.errno, exc.strerror, str(target)) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, target)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise OSError(exc.errno, exc.strerror, str(target)) from None
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
