"""`ruleskit simulate`: summaries, determinism across workers, JSON, logs and argument errors."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cli_support import PACKS, SHOWN

import ruleskit
from ruleskit.cli import main
from ruleskit.simulate import TIMING_KEYS, simulate

RACE = str(PACKS / "dice_race")
REQUIRED_KEYS = {"pack", "players", "games", "seed", "wins_by_seat", "end_reasons", "mean_decisions",
                 "games_per_second", "decisions_per_second"}


def _without_timing(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in TIMING_KEYS}


def test_same_seed_same_results_for_one_or_two_workers() -> None:
    game = ruleskit.load(SHOWN)
    one = simulate(game, 10, 3, ["greedy", "random", "random"], seed=42, workers=1)
    two = simulate(game, 10, 3, ["greedy", "random", "random"], seed=42, workers=2)
    assert _without_timing(one) == _without_timing(two)
    other_seed = simulate(game, 10, 3, ["greedy", "random", "random"], seed=43, workers=1)
    assert _without_timing(other_seed) != _without_timing(one)


def test_summary_counts_add_up() -> None:
    game = ruleskit.load(SHOWN)
    summary = simulate(game, 16, 2, ["random"], seed=3)
    assert summary["games"] == 16
    assert sum(seat["wins"] for seat in summary["wins_by_seat"]) == pytest.approx(16)
    assert sum(summary["end_reasons"].values()) == 16
    lucky, plain = summary["groups"]["luck"]["lucky"], summary["groups"]["luck"]["plain"]
    assert lucky["games"] == plain["games"] == 16
    assert lucky["wins"] == summary["wins_by_seat"][0]["wins"]
    for seat in summary["wins_by_seat"]:
        low, high = seat["ci95"]
        assert 0 <= low <= seat["rate"] <= high <= 1
    assert summary["min_decisions"] <= summary["mean_decisions"] <= summary["max_decisions"]


def test_cli_json_and_logs_that_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, logs = tmp_path / "summary.json", tmp_path / "logs"
    code = main(["simulate", SHOWN, "--games", "4", "--players", "2", "--bots", "greedy,random", "--seed", "9",
                 "--workers", "2", "--json", str(out), "--log-dir", str(logs), "--quiet"])
    assert code == 0
    printed = capsys.readouterr().out
    assert "Wins by seat" in printed and "Wins by luck" in printed and "decisions/s" in printed
    summary = json.loads(out.read_text())
    assert REQUIRED_KEYS <= set(summary)
    assert summary["pack"] == "dice-race-shown" and summary["games"] == 4 and summary["seed"] == 9
    files = sorted(logs.glob("*.jsonl"))
    assert len(files) == 4
    for log in files:
        assert main(["replay", str(log), SHOWN]) == 0
    assert "replay ok" in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["--games", "0"], "from 1 to 1,000,000, not 0"),
    (["--games", "many"], "whole number"),
    (["--seed", "x"], "seed must be an integer"),
])
def test_bad_numbers_are_refused_by_the_parser(args: list[str], message: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", SHOWN, *args])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("args, message", [
    (["--bots", "robot"], "unknown bot 'robot'"),
    (["--players", "9"], "for 2-4 players, not 9"),
    (["--players", "3", "--bots", "random,greedy"], "2 bots named for 3 players"),
    # refused before a bot is named for each seat (a list of a billion names took gigabytes)
    (["--players", "1000000000"], "for 2-4 players, not 1000000000"),
    (["--bots", "greedy:\u00b2"], "greedy takes a number of samples"),
])
def test_bad_choices_get_a_message_not_a_traceback(args: list[str], message: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", SHOWN, "--games", "2", "--quiet", *args]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_too_many_greedy_samples_are_refused_before_any_game(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    logs = tmp_path / "logs"
    assert main(["simulate", SHOWN, "--games", "2", "--quiet", "--bots", "greedy:99999999",
                 "--log-dir", str(logs)]) == 1
    assert "at most 1,000 samples" in capsys.readouterr().err
    assert not logs.exists()  # the games' log folder is made only once the games start


def test_unknown_pack(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "no-such-pack", "--quiet"]) == 1
    assert "no pack found" in capsys.readouterr().err


def test_help_lists_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    text = capsys.readouterr().out
    for option in ("--games", "--players", "--bots", "--seed", "--workers", "--json", "--log-dir"):
        assert option in text


def test_a_bot_per_seat_sets_the_player_count(tmp_path: Path) -> None:
    out = tmp_path / "summary.json"
    assert main(["simulate", SHOWN, "--games", "2", "--bots", "greedy,random,random", "--quiet",
                 "--json", str(out)]) == 0
    summary = json.loads(out.read_text())
    assert summary["players"] == 3 and len(summary["wins_by_seat"]) == 3


def test_output_paths_are_checked_before_the_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    existing = tmp_path / "file.txt"
    existing.write_text("kept", encoding="utf-8")
    cases = [
        (["simulate", SHOWN, "--games", "2", "--quiet", "--json", str(tmp_path)], "is a folder"),
        (["simulate", SHOWN, "--games", "2", "--quiet", "--json", str(tmp_path / "no" / "x.json")], "does not exist"),
        (["simulate", SHOWN, "--games", "2", "--quiet", "--log-dir", str(existing)], "is a file"),
        (["compile", SHOWN, "--out", str(tmp_path)], "is a folder"),
        (["compile", SHOWN, "--out", str(tmp_path / "no" / "x.py")], "does not exist"),
        (["schema", "--out", str(existing)], "is a file"),
    ]
    for args, message in cases:
        assert main(args) == 1, args
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err, (args, err)
    assert existing.read_text(encoding="utf-8") == "kept"


@pytest.mark.parametrize("command", [["simulate", RACE], ["compare", RACE, RACE], ["tournament", RACE,
                                                                                  "--bots", "random,greedy"]])
def test_more_workers_than_four_per_cpu_are_refused(command: list[str], monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert main([*command, "-n", "100", "-p", "2", "-q", "--workers", "9"]) == 1
    assert "--workers 9 is too many for 2 CPUs: at most 8 (4 per CPU)" in capsys.readouterr().err
