"""The engine is generic: no module under ruleskit/ names a game's concepts."""

from __future__ import annotations

import re
from pathlib import Path

import ruleskit

GAME_WORDS = re.compile(
    r"ophir|favou?r|temple|influence|specialist|commodit|rival|market|nereus|valdora|navoria|merchant|cargo"
    r"|envoys|courier|informant|bodyguard|emissary|diplomat",
    re.IGNORECASE,
)
PACKAGE = Path(ruleskit.__file__).resolve().parent


def offending_lines(root: Path) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        if "_data" in path.relative_to(root).parts:
            continue  # the packs a wheel ships are games, not engine code
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            match = GAME_WORDS.search(line)
            if match:
                found.append(f"{path.relative_to(root.parent)}:{number}: '{match.group(0)}'")
    return found


def test_engine_modules_name_no_game_concepts() -> None:
    modules = list(PACKAGE.rglob("*.py"))
    assert len(modules) > 20  # the scan really covers the package
    assert offending_lines(PACKAGE) == []


def test_the_scan_would_catch_a_game_word(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "clean.py").write_text("x = 1\n")
    (package / "dirty.py").write_text("# the Temple track\nFAVOR = 2\n")
    assert offending_lines(package) == ["pkg/dirty.py:1: 'Temple'", "pkg/dirty.py:2: 'FAVOR'"]
