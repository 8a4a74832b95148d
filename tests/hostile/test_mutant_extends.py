"""A mutant's copy of a variant finds the same base: a relative `extends` is rewritten relative to the copy's
folder (the loader refuses absolute paths), a built-in pack's name stays as written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ruleskit.cli import main
from ruleskit.game import load
from ruleskit.mutation.edits import Mutant, mutant_copy
from ruleskit.packs import find_base

ROOT = Path(__file__).resolve().parents[2]
PACKS = ROOT / "tests" / "packs"
NO_EDITS = Mutant("none", "no change", ())


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULESKIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("RULESKIT_NO_CACHE", raising=False)


def extends_of(copy: Path) -> str:
    line = next(line for line in (copy / "pack.toml").read_text().splitlines() if line.startswith("extends"))
    return json.loads(line.split("=", 1)[1])


@pytest.mark.parametrize("quoted", ['"../dice_race"', "'../dice_race'", '"./../dice_race"'])
def test_the_copy_of_a_variant_with_a_relative_extends_loads_on_the_same_base(tmp_path: Path, quoted: str) -> None:
    shutil.copytree(PACKS / "dice_race", tmp_path / "dice_race")
    variant = tmp_path / "variant"
    shutil.copytree(PACKS / "dice_race_variant", variant)
    manifest = variant / "pack.toml"
    manifest.write_text(manifest.read_text().replace('extends = "../dice_race"', f"extends = {quoted}"))
    copy = mutant_copy(variant, NO_EDITS)
    try:
        ref = extends_of(copy)
        assert not Path(ref).is_absolute()
        assert find_base(ref, copy) == (tmp_path / "dice_race").resolve()
        assert load(copy).name == load(variant).name == "dice-race-variant"
    finally:
        shutil.rmtree(copy.parent)


def test_the_copy_of_a_variant_of_a_builtin_pack_keeps_its_name(tmp_path: Path) -> None:
    variant = tmp_path / "variant"
    variant.mkdir()
    (variant / "pack.toml").write_text('name = "c4v"\nversion = "0.1"\nplayers = { min = 2, max = 2 }\n'
                                       'extends = "connect_four"\n')
    copy = mutant_copy(variant, NO_EDITS)
    try:
        assert extends_of(copy) == "connect_four"
        assert load(copy).name == "c4v"
    finally:
        shutil.rmtree(copy.parent)


def test_mutants_of_a_variant_with_a_relative_extends_are_valid(capsys: pytest.CaptureFixture[str]) -> None:
    # Every mutant was "invalid": the copy's extends was made absolute, which the loader refuses.
    main(["mutate", str(PACKS / "dice_race_variant"), "--limit", "3", "--time", "2s", "--lockstep-time", "1s",
          "--json"])
    report = json.loads(capsys.readouterr().out)
    assert report["tried"] == 3 and report["invalid"] == 0, report
