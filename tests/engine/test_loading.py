"""Finding packs: by folder, by pack.toml path, by built-in name, and variants extending a built-in."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_support import PACKS

import ruleskit
from ruleskit import packs
from ruleskit.errors import PackError


@pytest.fixture()
def builtins_from_tests(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pretend the toy packs are the built-in ones."""
    monkeypatch.setattr(packs, "builtin_packs", lambda: {"card_duel": PACKS / "card_duel",
                                                         "dice_race": PACKS / "dice_race"})


@pytest.mark.parametrize("name", ["dice_race", "dice_race_variant", "dice_race_marathon", "card_duel"])
def test_every_toy_pack_loads_from_its_folder_and_its_manifest(name: str) -> None:
    by_folder = ruleskit.load(PACKS / name)
    by_manifest = ruleskit.load(str(PACKS / name / "pack.toml"))
    assert by_folder.content_hash == by_manifest.content_hash
    assert by_folder.new_game(players=2, seed=1) == by_manifest.new_game(players=2, seed=1)


def test_built_in_name(builtins_from_tests: None) -> None:
    game = ruleskit.load("card_duel")
    assert game.name == "card-duel" and game.source.root == (PACKS / "card_duel").resolve()


def test_unknown_built_in_name_suggests_one(builtins_from_tests: None) -> None:
    with pytest.raises(PackError, match="no pack found at 'card_dual'") as caught:
        ruleskit.load("card_dual")
    assert caught.value.hint == "did you mean 'card_duel'?"


def test_variant_extends_a_built_in_by_name(builtins_from_tests: None, tmp_path: Path) -> None:
    root = tmp_path / "quick"
    root.mkdir()
    (root / "pack.toml").write_text('name = "quick-race"\nversion = "2"\nplayers = { min = 2, max = 2 }\n'
                                    'extends = "dice_race"\n')
    (root / "quick.toml").write_text('[update.flow]\nmax_turns = 4\n')
    game = ruleskit.load(root)
    assert game.chain == ["dice-race", "quick-race"] and game.max_turns == 4 and game.max_players == 2
    state = game.new_game(players=2, seed=0)
    while not state.is_terminal:
        state.apply("roll" if state.stage == "roll" else "stop")
    assert state.result["reason"] == "turn limit" and state.data["flow"]["turn"] == 5
