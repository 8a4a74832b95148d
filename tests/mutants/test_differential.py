"""Differential runs on toy packs: a planted change is caught at its path, a declared difference is ignored."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ruleskit.cli import main
from ruleskit.game import load
from ruleskit.log import replay
from ruleskit.testing.differential import Expectations, check_against, state_differences

PACKS = Path(__file__).resolve().parent.parent / "packs"
DICE = PACKS / "dice_race"


def _variant(tmp_path: Path, old: str, new: str, manifest_extra: str = "") -> Path:
    copy = tmp_path / "dice_variant"
    shutil.copytree(DICE, copy)
    game_file = copy / "game.toml"
    text = game_file.read_text()
    assert text.count(old) == 1
    game_file.write_text(text.replace(old, new))
    manifest = copy / "pack.toml"
    manifest.write_text(manifest.read_text().replace('name = "dice-race"', 'name = "dice-variant"') + manifest_extra)
    return copy


def test_a_planted_change_is_caught_at_its_path_shrunk_and_logged(tmp_path: Path) -> None:
    variant = _variant(tmp_path, "items.c = { points = 2 }", "items.c = { points = 3 }")
    out = tmp_path / "diverged.jsonl"
    report = check_against(variant, DICE, games=40, seed=1, out=out)
    found = report.divergence
    assert found is not None and not report.ok
    # Stepping onto c scores its points: the first difference is that player's score.
    assert found.first.path.startswith("players[") and found.first.path.endswith("].score")
    assert found.first.mine == found.first.other + 1
    assert found.steps and found.steps[-1].action == "step:c"
    assert "players[" in found.describe() and "step:c" in found.describe()
    # Both games are written as logs that replay in their own pack, up to the divergence.
    assert replay(out, variant).raw == found.state.raw
    assert replay(found.other_log_path, DICE).raw == found.other_state.raw


def test_an_expected_difference_is_ignored_and_the_rest_still_compared(tmp_path: Path) -> None:
    variant = _variant(tmp_path, "items.c = { points = 2 }", "items.c = { points = 3 }")
    report = check_against(variant, DICE, games=30, seed=1, expect=["players[*].score", "result"])
    assert report.ok, report.divergence and report.divergence.describe()
    assert sum(report.games.values()) >= 30
    # Declared in the variant's pack.toml instead of on the command line.
    declared = _variant(tmp_path / "declared", "items.c = { points = 2 }", "items.c = { points = 3 }",
                        '\nexpect_diff = ["players[*].score", "result"]\n')
    assert check_against(declared, DICE, games=10, seed=1).ok
    # Declaring the score alone still reports the result, which the score changes at the end.
    partial = check_against(variant, DICE, games=30, seed=1, expect=["players[*].score"])
    assert partial.divergence is not None and partial.divergence.first.path.startswith("result")


def test_different_legal_actions_are_a_divergence(tmp_path: Path) -> None:
    variant = _variant(tmp_path, 'when = "steps > 0"', 'when = "steps > 1"')
    report = check_against(variant, DICE, games=20, seed=0)
    assert report.divergence is not None
    assert report.divergence.first.path == "legal_actions.step:a" or report.divergence.first.path.startswith(
        "legal_actions.")


def test_the_two_backends_play_the_same_games() -> None:
    report = check_against(load(DICE, backend="compiled"), load(DICE, backend="closures"), games=20)
    assert report.ok and report.other.endswith("(closures)")


def test_paths_and_patterns() -> None:
    game = load(DICE)
    a, b = game.new_game(players=2, seed=3), game.new_game(players=2, seed=3)
    b.data["pv"][1]["score"] = 4
    assert [d.describe() for d in state_differences(a, b)] == ["players[1].score: 0 != 4"]
    patterns = Expectations(["players[*].coins", "zones.supply", "legal_actions.sail*"])
    assert patterns.expected("players[1].coins")
    assert not patterns.expected("players[1].coinsx") and not patterns.expected("players[1].favor")
    assert patterns.expected("zones.supply.wood") and not patterns.expected("zones.supplies")
    assert patterns.expected("legal_actions.sail:h3") and not patterns.expected("legal_actions.anchor")


def test_the_command_reports_the_divergence(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    variant = _variant(tmp_path, "items.c = { points = 2 }", "items.c = { points = 3 }")
    monkeypatch.chdir(tmp_path)
    assert main(["test", str(variant), "--against", str(DICE), "--games", "30", "-q"]) == 1
    captured = capsys.readouterr()
    assert "DIVERGED" in captured.out and "].score:" in captured.err
    assert (tmp_path / "dice-variant-vs-dice-race-divergence.jsonl").exists()
    assert main(["test", str(variant), "--against", str(DICE), "--games", "10", "-q",
                 "--expect-diff", "players[*].score", "--expect-diff", "result"]) == 0
    assert main(["test", str(DICE), "--against-backend", "closures", "--games", "6", "-q"]) == 0
