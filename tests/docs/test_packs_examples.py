"""Every TOML example in docs/PACKS.md uses only keys the pack schema knows.

A block with `name` and `players` is a pack.toml; any other block is a pack
file, and each of its definitions (including those under `[replace.*]` and
`[update.*]`, which must be complete for `replace`) is structured with the same
converter the loader uses, so an unknown key or a wrong type fails here.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from ruleskit.packs import MANIFEST_KEYS, make_converter
from ruleskit.schema import SECTIONS, SINGLETONS, Manifest

PACKS_MD = Path(__file__).resolve().parents[2] / "docs" / "PACKS.md"


def blocks() -> list[tuple[int, str]]:
    lines = PACKS_MD.read_text(encoding="utf-8").splitlines()
    found, i = [], 0
    while i < len(lines):
        if lines[i].strip() == "```toml":
            end = i + 1
            while lines[end].strip() != "```":
                end += 1
            found.append((i + 2, "\n".join(lines[i + 1:end])))
            i = end
        i += 1
    return found


BLOCKS = blocks()
CONVERTER = make_converter()


def _structure(section: str, data: Any, where: str) -> None:
    if section == "display":
        assert isinstance(data, dict), where
        return
    CONVERTER.structure(data, SECTIONS.get(section) or SINGLETONS[section])


def check_pack_file(data: dict[str, Any], where: str, partial: bool = False) -> None:
    for key, value in data.items():
        if key in SECTIONS:
            for name, definition in value.items():
                if key == "kinds" and set(definition) == {"items"}:
                    continue  # items added to a base kind
                if not partial:
                    _structure(key, definition, f"{where} [{key}.{name}]")
        elif key in SINGLETONS:
            if not partial:
                _structure(key, value, f"{where} [{key}]")
        elif key in ("replace", "update"):
            for section, entries in value.items():
                assert section in SECTIONS or section in SINGLETONS, f"{where}: unknown section {section}"
                check_pack_file({section: entries}, where, partial=key == "update")
        elif key == "remove":
            assert all(isinstance(r, str) for r in value), where
        else:
            pytest.fail(f"{where}: unknown section '{key}'")


def test_there_are_examples() -> None:
    assert len(BLOCKS) >= 15


@pytest.mark.parametrize("line,text", BLOCKS, ids=[f"line{line}" for line, _ in BLOCKS])
def test_toml_example_fits_the_schema(line: int, text: str) -> None:
    where = f"docs/PACKS.md:{line}"
    data = tomllib.loads(text)
    if "name" in data and "players" in data:
        assert set(data) <= MANIFEST_KEYS, where
        CONVERTER.structure({k: v for k, v in data.items() if k != "remove"}, Manifest)
    else:
        check_pack_file(data, where)


def test_a_wrong_key_would_be_caught() -> None:
    with pytest.raises(Exception):  # noqa: B017 - cattrs raises its own validation group
        check_pack_file({"actions": {"x": {"stage": "roll", "effects": "say 1"}}}, "test")
