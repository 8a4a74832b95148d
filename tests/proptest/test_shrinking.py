"""`ruleskit test` catches the deliberately broken Ophir variant, shrinks it and writes a replay that fails again."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleskit.cli import main
from ruleskit.log import replay
from ruleskit.testing.runner import check_log
from ruleskit.testing.runner import check_pack as run_pack_test

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "examples" / "broken-ophir"


@pytest.fixture(scope="module")
def caught(tmp_path_factory: pytest.TempPathFactory):
    out = tmp_path_factory.mktemp("broken") / "failure.jsonl"
    report = run_pack_test(BROKEN, games=20, players=[2], seed=0, out=out)
    return report, out


def test_the_broken_variant_fails_its_conservation_property(caught) -> None:
    report, out = caught
    assert not report.ok
    failure = report.failure
    # Ophir's property of the acquire action sees the good thrown overboard; its goods_conserved
    # invariant would see it a decision later.
    assert failure.name == "property acquire_moves_goods"
    assert failure.source is not None and "games/ophir/checks.toml:" in failure.source
    # The shrunk game is short: a few sails and acquisitions until a good is about to be thrown overboard,
    # which the checks find by applying that discard to a copy of the state.
    assert 0 < len(failure.steps) <= 40
    assert "to a copy of this state" in failure.detail
    assert failure.state is not None and sum(failure.state.data["z"]["sea"].values()) == 0
    described = failure.describe()
    assert "acquire_moves_goods" in described and '"sea"' in described and str(out) in described


def test_the_written_log_replays_and_reproduces_the_failure(caught) -> None:
    report, out = caught
    state = replay(out, BROKEN)  # a plain replay log: `ruleskit replay LOG PACK` accepts it
    assert state.history[1:] and len(state.history) - 1 == len(report.failure.steps)
    again = check_log(out, BROKEN)
    assert again is not None
    assert again.name == report.failure.name
    assert [s.action for s in again.steps] == [s.action for s in report.failure.steps]


def test_the_unbroken_game_passes_the_same_decisions() -> None:
    # The same checks on Ophir itself hold: the failure comes from the variant's change.
    report = run_pack_test("ophir", games=6, players=[2], seed=0, max_decisions=40)
    assert report.ok, report.failure.describe() if report.failure else report.problems


def test_cli_exits_non_zero_and_writes_the_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "broken.jsonl"
    code = main(["test", str(BROKEN), "--games", "10", "--players", "2", "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 1
    assert "FAILED: property acquire_moves_goods" in captured.err
    assert out.is_file()
    assert main(["test", str(BROKEN), "--log", str(out)]) == 1
    assert "acquire_moves_goods" in capsys.readouterr().err


def test_cli_passes_a_sound_pack(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["test", str(ROOT / "tests/packs/dice_race"), "--games", "3", "--players", "2,3",
                 "--max-decisions", "50", "--thorough-every", "2"])
    assert code == 0
    assert "dice-race: 3 games (2p: 2, 3p: 1" in capsys.readouterr().out


def test_cli_refuses_a_player_count_the_pack_does_not_allow(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["test", str(ROOT / "tests/packs/dice_race"), "--players", "7"]) == 1
    assert "not 7" in capsys.readouterr().err
