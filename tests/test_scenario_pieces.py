"""A scenario's pieces come from where setup put them, and its position holds the pack's invariants."""

from pathlib import Path

import pytest

import ruleskit
from ruleskit import PackError
from ruleskit.testing.scenario_tests import run_pack_tests

PACK = Path(__file__).parent / "packs" / "counted_pieces"  # setup: deck c3-c6, hands c1 and c2, supply 3+3


def load(tmp_path: Path, text: str) -> ruleskit.State:
    path = tmp_path / "scenario.toml"
    path.write_text("players = 2\n" + text)
    return ruleskit.scenario(str(path), str(PACK))


def error_of(tmp_path: Path, text: str) -> PackError:
    with pytest.raises(PackError) as caught:
        load(tmp_path, text)
    return caught.value


def test_a_deck_card_written_in_a_hand_leaves_the_deck(tmp_path: Path) -> None:
    state = load(tmp_path, '[zones]\n"hand@0" = ["c1", "c4"]\n')
    assert state.data["z"]["hand@0"] == ["c1", "c4"]
    assert state.data["z"]["deck"] == ["c3", "c5", "c6"]


def test_a_card_a_hand_no_longer_holds_takes_the_place_of_the_card_it_gained(tmp_path: Path) -> None:
    state = load(tmp_path, '[zones]\n"hand@0" = ["c5"]\n')
    assert state.data["z"]["hand@0"] == ["c5"]
    assert state.data["z"]["deck"] == ["c3", "c4", "c1", "c6"]


def test_goods_written_in_cargo_leave_the_supply(tmp_path: Path) -> None:
    state = load(tmp_path, '[zones]\n"cargo@0" = { wood = 2 }\n')
    assert state.data["z"]["supply"] == {"wood": 1, "stone": 3}
    state = load(tmp_path, '[zones]\n"cargo@0" = { wood = 2 }\nsupply = { stone = 1 }\n"cargo@1" = { stone = 2 }\n')
    assert state.data["z"]["supply"] == {"wood": 1, "stone": 1}  # stone is written in both: as written


def test_zones_written_both_keep_their_lists_as_written(tmp_path: Path) -> None:
    state = load(tmp_path, '[zones]\ndeck = ["c6", "c3", "c4"]\n"hand@0" = ["c1", "c5"]\n')
    assert state.data["z"]["deck"] == ["c6", "c3", "c4"]
    assert state.data["z"]["hand@0"] == ["c1", "c5"]
    assert state.data["z"]["hand@1"] == ["c2"]


def test_a_position_that_breaks_an_invariant_is_an_error_naming_it_and_the_file(tmp_path: Path) -> None:
    error = error_of(tmp_path, '[flow]\nactive = 0\n[zones]\ndeck = []\n')
    assert error.file == str(tmp_path / "scenario.toml")
    assert error.line == 5  # the zone that dropped the cards
    assert "invariant 'cards_conserved'" in str(error) and "the 6 cards are in the deck or in hands" in str(error)
    assert "zone 'deck' loses 1 'c3', which the scenario puts in no other zone" in (error.hint or "")


def test_goods_the_supply_cannot_give_are_an_error(tmp_path: Path) -> None:
    error = error_of(tmp_path, '[zones]\n"cargo@0" = { wood = 4 }\n')
    assert "invariant 'goods_conserved'" in str(error) and error.line == 3
    assert "zone 'cargo@0' gains 4 'wood', more than 'supply', where setup put it, holds" in (error.hint or "")


def test_a_broken_invariant_with_nothing_moved_points_at_the_opt_out(tmp_path: Path) -> None:
    error = error_of(tmp_path, '[zones]\ndeck = ["c5", "c6"]\n"hand@0" = ["c1", "c3", "c4"]\n')
    assert "invariant 'hand_limit'" in str(error) and error.line == 2
    assert "invariants = false" in (error.hint or "")


def test_invariants_false_loads_a_partial_position_as_written(tmp_path: Path) -> None:
    state = load(tmp_path, 'invariants = false\n[zones]\ndeck = []\n')
    assert state.data["z"]["deck"] == [] and state.data["z"]["hand@0"] == ["c1"]
    error = error_of(tmp_path, 'invariants = "no"\n')
    assert error.line == 2 and "'invariants' is true or false" in str(error)


def test_a_scenario_test_and_play_refuse_the_position_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ruleskit.cli import main

    pack = tmp_path / "pack"
    pack.mkdir()
    for name in ("pack.toml", "game.toml"):
        (pack / name).write_text((PACK / name).read_text())
    (pack / "tests").mkdir()
    (pack / "tests" / "broken.toml").write_text('[zones]\ndeck = []\n[expect]\nchecks = ["count(deck) == 0"]\n')
    problems = [str(problem) for problem in run_pack_tests(pack).problems]
    assert len(problems) == 1
    assert "broken.toml:2: failed:" in problems[0] and "invariant 'cards_conserved'" in problems[0]
    assert main(["play", str(pack), "--scenario", str(pack / "tests" / "broken.toml"), "--seats", "random,random"]) != 0
    assert "invariant 'cards_conserved'" in capsys.readouterr().err
