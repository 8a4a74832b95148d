"""docs/TUTORIAL.md: every command prints what the tutorial shows, and its packs end as the built-in ones.

Rewrite the outputs after a change with `python tests/docs/tutorial_runner.py`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tutorial_runner import ROOT, TUTORIAL, blocks, mask, run  # noqa: E402

LINES = TUTORIAL.read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list]:
    folder = tmp_path_factory.mktemp("tutorial")
    return folder, run(LINES, folder)


def test_every_command_prints_what_the_tutorial_shows(played: tuple[Path, list]) -> None:
    _, results = played
    commands = [outcome for _, outcomes in results for outcome in outcomes]
    assert len(commands) >= 10
    for command, recorded, produced in commands:
        assert mask(produced) == mask(recorded), f"$ {command}\n--- shown:\n{recorded}\n--- now:\n{produced}"


@pytest.mark.parametrize("pack", ["connect_four", "envoys"])
def test_the_tutorial_packs_end_as_the_built_in_ones(pack: str, played: tuple[Path, list]) -> None:
    folder, _ = played
    built_in = ROOT / "games" / pack
    written = sorted(p.name for p in (folder / pack).iterdir())
    shipped = sorted(p.name for p in built_in.iterdir() if p.suffix in (".toml", ".rk"))
    assert written == shipped
    for name in written:
        assert (folder / pack / name).read_text(encoding="utf-8") == (built_in / name).read_text(encoding="utf-8"), name


def test_the_tutorial_writes_each_file_it_shows() -> None:
    files = {block.path for block in blocks(LINES) if block.kind == "file"}
    assert {"connect_four/pack.toml", "connect_four/rules.rk", "envoys/actions.toml"} <= files
