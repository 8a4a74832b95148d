"""A command never writes over what it reads: an output named over a .toml or .rk file of the pack's folder
or of a base's it extends (or a new one there, read as part of the pack next time), or over an input file,
is refused before anything runs, and the pack is left as it was."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from cli_support import PACKS

from ruleskit.cli import main


@pytest.fixture()
def variant(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of a variant and of the base it extends: (variant folder, base folder)."""
    shutil.copytree(PACKS / "dice_race", tmp_path / "dice_race")
    shutil.copytree(PACKS / "dice_race_variant", tmp_path / "dice_race_variant")
    return tmp_path / "dice_race_variant", tmp_path / "dice_race"


def snapshot(*folders: Path) -> dict[Path, bytes]:
    return {path: path.read_bytes() for folder in folders for path in sorted(folder.rglob("*")) if path.is_file()}


@pytest.mark.parametrize("command", [
    ["simulate", "{pack}", "-n", "2", "-q", "--json", "{out}"],
    ["compare", "{pack}", "{pack}", "-n", "2", "--json", "{out}"],
    ["tournament", "{pack}", "--bots", "random,random", "-n", "1", "--json", "{out}"],
    ["compile", "{pack}", "--out", "{out}"],
    ["mutate", "{pack}", "--limit", "1", "--out", "{out}"],
    ["test", "{pack}", "--games", "1", "--no-scenarios", "--out", "{out}"],
    ["play", "{pack}", "--seats", "random,random", "--seed", "1", "--log", "{out}"],
])
@pytest.mark.parametrize("where, name", [("variant", "pack.toml"), ("base", "rules.rk"),
                                         ("base", "tests/new.toml")])
def test_pack_files_are_not_written(variant: tuple[Path, Path], command: list[str], where: str, name: str,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    pack, base = variant
    inside = pack if where == "variant" else base
    (inside / "tests").mkdir(exist_ok=True)
    before = snapshot(pack, base)
    assert main([part.format(pack=pack, out=inside / name) for part in command]) == 1
    err = capsys.readouterr().err
    assert "into the pack folder" in err and str(inside.resolve()) in err
    assert snapshot(pack, base) == before


def test_a_log_over_the_save_it_continues_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "game.json"
    save.write_text("{}", encoding="utf-8")
    assert main(["play", "--load", str(save), "--log", str(save)]) == 1
    assert "is a file this command reads" in capsys.readouterr().err
    assert save.read_text(encoding="utf-8") == "{}"


def test_other_files_in_a_pack_folder_are_written(variant: tuple[Path, Path]) -> None:
    pack, _ = variant
    assert main(["simulate", str(pack), "-n", "2", "-q", "--json", str(pack / "summary.json")]) == 0
    assert (pack / "summary.json").is_file()


def test_save_at_the_prompt_over_a_pack_file_is_refused(variant: tuple[Path, Path], script,  # type: ignore[no-untyped-def]
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    pack, base = variant
    before = snapshot(pack, base)
    script([f"save {base / 'rules.rk'}", f"save {pack.parent / 'game.json'}", "quit"])
    assert main(["play", str(pack), "--seats", "human,random", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "into the pack folder" in out and "Saved to" in out
    assert snapshot(pack, base) == before and (pack.parent / "game.json").is_file()
