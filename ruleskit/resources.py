"""Locating files shipped with ruleskit: the grammar and the built-in packs.

In a wheel they live under `ruleskit/_data/`; in a source checkout or an
editable install they are the top-level `grammar/` and `games/` folders.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The folder `name` (`games` or `grammar`) wherever this install keeps it."""
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"ruleskit's '{name}' folder is missing from this install")


def grammar_path() -> Path:
    return data_dir("grammar") / "ruleskit.lark"


def builtin_packs() -> dict[str, Path]:
    """Built-in packs by name."""
    try:
        root = data_dir("games")
    except FileNotFoundError:
        return {}
    return {p.name: p for p in sorted(root.iterdir()) if (p / "pack.toml").is_file()}
