"""`ruleskit new`: a small working pack copied from a template, ready to edit.

Templates are folders under `templates/` (shipped in the wheel); the token
`__NAME__` in their text files becomes the new pack's name.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from .errors import PackError
from .resources import data_dir

NAME_TOKEN = "__NAME__"
DEFAULT_TEMPLATE = "pig"
_PACK_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,63}$")


def templates() -> dict[str, Path]:
    """The templates shipped with ruleskit, by name."""
    try:
        root = data_dir("templates")
    except FileNotFoundError:
        return {}
    return {p.name: p for p in sorted(root.iterdir()) if (p / "pack.toml").is_file()}


def pack_name_for(folder: Path) -> str:
    """The pack name a folder gets: its name in lower case, accents taken off its letters, other characters
    as '-'."""
    # Decomposed, an accented letter is its plain letter and a combining mark: the mark alone is dropped.
    plain = "".join(c for c in unicodedata.normalize("NFKD", folder.name) if not unicodedata.combining(c))
    name = re.sub(r"[^a-z0-9_-]+", "-", plain.lower()).strip("-")
    if not name or not name[0].isalpha():
        name = "pack-" + name if name else "pack"
    return name[:64]


def create_pack(folder: str | Path, template: str = DEFAULT_TEMPLATE, name: str | None = None) -> Path:
    """Copy `template` into `folder` (which must not exist or be empty); return the folder."""
    known = templates()
    if template not in known:
        raise PackError(f"unknown template '{template}'", hint="templates: " + ", ".join(known) if known else None)
    if not str(folder):  # Path("") is ".", which would be refused as a folder that already exists
        raise PackError("a pack name cannot be empty")
    target = Path(folder)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise PackError(f"'{target}' already exists and is not an empty folder; choose a new name")
    pack_name = name or pack_name_for(target.resolve())
    if not _PACK_NAME.match(pack_name):
        raise PackError(f"'{pack_name}' is not a pack name: use lower-case letters, digits, '-' and '_', "
                        "starting with a letter")
    source = known[template]
    for path in sorted(source.rglob("*")):
        if "__pycache__" in path.parts or path.is_dir():
            continue
        destination = target / path.relative_to(source)
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_text(path.read_text(encoding="utf-8").replace(NAME_TOKEN, pack_name), encoding="utf-8")
    return target
