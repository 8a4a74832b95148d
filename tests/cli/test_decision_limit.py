"""`--max-decisions N` of simulate, compare and tournament: a game still running after N decisions is stopped.

The limit was fixed at 20,000: a pack whose game never ends, played by mcts at seconds a decision, ran for days a
game. A stopped game counts under the end reason "decision limit", with no winner; the results name the limit and
how many games reached it; its log replays as an unfinished game.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import PACKS

import ruleskit
from ruleskit.cli import build_parser, main
from ruleskit.compare import compare
from ruleskit.errors import PackError
from ruleskit.limits import MAX_DECISIONS
from ruleskit.report import decision_limit_note
from ruleskit.simulate import DECISION_LIMIT, TIMING_KEYS, run_games, simulate
from ruleskit.tournament import tournament

RACE = str(PACKS / "dice_race")
ENDLESS_FILES = {
    "pack.toml": 'name = "endless"\nversion = "1"\ndescription = "Nothing ends the game."\n'
                 "players = { min = 2, max = 3 }\n",
    "game.toml": '[counters.count]\nowner = "player"\nmin = 0\n\n[stages.count]\n[phases.play]\nstage = "count"\n\n'
                 '[flow]\nstart = "play"\n\n[actions.add]\nstage = "count"\nparams = { n = "[1, 2]" }\n'
                 'label = "Add {n}"\neffect = "me.count += n\\nend turn"\n\n[scoring]\nscore = "p.count"\n',
}


@pytest.fixture(scope="module")
def endless(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A pack whose game never ends: its players add to their counts turn after turn. (Not in tests/packs, whose
    packs other tests play to their end.)"""
    folder = tmp_path_factory.mktemp("packs") / "endless"
    folder.mkdir()
    for name, text in ENDLESS_FILES.items():
        (folder / name).write_text(text, encoding="utf-8")
    return str(folder)


def _games(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in TIMING_KEYS}


def test_simulate_stops_each_game_at_the_limit_and_says_so(endless: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    out, logs = tmp_path / "summary.json", tmp_path / "logs"
    assert main(["simulate", endless, "--games", "4", "--players", "2", "--bots", "random,greedy",
                 "--max-decisions", "50", "--workers", "2", "--json", str(out), "--log-dir", str(logs), "-q"]) == 0
    printed = " ".join(capsys.readouterr().out.split())
    assert "ended: decision limit" in printed
    assert "4 of 4 games reached the decision limit (50 decisions) and were stopped before the end" in printed
    assert "--max-decisions" in printed
    summary = json.loads(out.read_text())
    assert summary["decision_limit"] == 50 and summary["cut_at_decision_limit"] == 4
    assert summary["end_reasons"] == {DECISION_LIMIT: 4}
    assert summary["min_decisions"] == summary["max_decisions"] == 50
    assert all(seat["wins"] == 0 for seat in summary["wins_by_seat"])
    assert len(list(logs.glob("game-*.jsonl"))) == 4


def test_a_stopped_game_s_log_replays_as_unfinished(endless: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    logs = tmp_path / "logs"
    assert main(["simulate", endless, "--games", "2", "--players", "3", "--max-decisions", "50",
                 "--log-dir", str(logs), "-q"]) == 0
    capsys.readouterr()
    log = logs / "game-00001.jsonl"
    assert main(["replay", str(log), endless]) == 0
    assert "50 decisions, unfinished" in capsys.readouterr().out
    assert main(["replay", str(log), endless, "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["ok"] and replayed["decisions"] == 50 and replayed["result"] is None


def test_compare_stops_both_packs_games_at_the_limit(endless: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", endless, endless, "--games", "3", "--players", "2", "--max-decisions", "50",
                 "--json", "-", "-q"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["decision_limit"] == 50
    assert result["cut_at_decision_limit"] == {"base": 3, "variant": 3}
    [reason] = result["end_reasons"]
    assert reason["what"] == DECISION_LIMIT and reason["base"]["wins"] == reason["variant"]["wins"] == 3
    assert result["lengths"][1]["base"]["mean"] == 50
    assert main(["compare", endless, endless, "--games", "3", "--players", "2", "--max-decisions", "50", "-q"]) == 0
    printed = " ".join(capsys.readouterr().out.split())
    assert "(variant) 3 of 3 games reached the decision limit (50 decisions)" in printed


def test_tournament_stops_games_at_the_limit_unrated(endless: str, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("openskill")
    out = tmp_path / "t.json"
    assert main(["tournament", endless, "--bots", "random,greedy,mcts:2", "--games", "2", "--max-decisions", "50",
                 "--json", str(out), "-q"]) == 0
    printed = " ".join(capsys.readouterr().out.split())
    assert "6 of 6 games reached the decision limit (50 decisions) and were stopped before the end, unrated" \
        in printed
    result = json.loads(out.read_text())
    assert result["decision_limit"] == 50 and result["cut_at_decision_limit"] == 6
    assert result["end_reasons"] == {DECISION_LIMIT: 6}
    assert [match["cut_at_decision_limit"] for match in result["pairings"]] == [2, 2, 2]
    assert all(row["mu"] == 25 and row["wins"] == 0 for row in result["ratings"])  # nothing rated


COMMANDS = {"simulate": lambda pack: [pack], "compare": lambda pack: [pack, pack],
            "tournament": lambda pack: [pack, "--bots", "random,greedy"]}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("value", ["0", "-1", "-50", str(MAX_DECISIONS + 1), "1e3", "1.5", "fifty", "５０", " 50",
                                   "1_000", "+50", "", "99999999999999999999999"])
def test_a_limit_that_is_not_a_number_of_decisions_is_refused(command: str, value: str,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        build_parser().parse_args([command, *COMMANDS[command](RACE), f"--max-decisions={value}"])
    assert exited.value.code == 2
    assert f"argument --max-decisions: expected a whole number of decisions from 1 to 20,000, not '{value}'" \
        in capsys.readouterr().err


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_the_range_ends_and_the_default_are_taken(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    arguments = [command, *COMMANDS[command](RACE)]
    assert build_parser().parse_args(arguments).max_decisions == MAX_DECISIONS == 20_000
    for value in ("1", "20000", "020"):
        assert build_parser().parse_args([*arguments, "--max-decisions", value]).max_decisions == int(value)
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert "--max-decisions N" in capsys.readouterr().out


@pytest.mark.parametrize("limit", [0, -1, MAX_DECISIONS + 1, 2.5, True, "50", None])
def test_the_library_refuses_a_limit_before_any_game(limit: object) -> None:
    game = ruleskit.load(RACE)
    for call in (lambda: run_games(game, 2, 2, ["random"], max_decisions=limit),  # type: ignore[arg-type]
                 lambda: simulate(game, 2, 2, ["random"], max_decisions=limit),  # type: ignore[arg-type]
                 lambda: compare(game, game, 2, 2, ["random"] * 2, max_decisions=limit),  # type: ignore[arg-type]
                 lambda: tournament(game, ["random", "greedy"], 2, 2, max_decisions=limit)):  # type: ignore[arg-type]
        with pytest.raises(PackError, match="the decision limit must be a whole number from 1 to 20,000"):
            call()


def test_the_limit_is_the_same_for_one_or_two_workers() -> None:
    """Some games end before the limit and others are stopped, in the worker processes as in this one."""
    game = ruleskit.load(RACE)
    one = simulate(game, 12, 2, ["random"], seed=5, workers=1, max_decisions=25)
    two = simulate(game, 12, 2, ["random"], seed=5, workers=2, max_decisions=25)
    assert _games(one) == _games(two)
    assert 0 < one["cut_at_decision_limit"] == one["end_reasons"][DECISION_LIMIT] < 12
    assert one["max_decisions"] == 25
    full = simulate(game, 12, 2, ["random"], seed=5, workers=2)
    assert full["decision_limit"] == MAX_DECISIONS and full["cut_at_decision_limit"] == 0
    assert DECISION_LIMIT not in full["end_reasons"]


def test_a_game_that_ends_at_its_last_allowed_decision_is_not_stopped() -> None:
    game = ruleskit.load(RACE)
    [played] = run_games(game, 1, 2, ["random", "random"], seed=11)
    assert played.reason != DECISION_LIMIT and played.places
    [exactly] = run_games(game, 1, 2, ["random", "random"], seed=11, max_decisions=played.decisions)
    assert (exactly.reason, exactly.winners, exactly.decisions) == (played.reason, played.winners, played.decisions)
    [cut] = run_games(game, 1, 2, ["random", "random"], seed=11, max_decisions=played.decisions - 1)
    assert (cut.reason, cut.winners, cut.places, cut.decisions) == (DECISION_LIMIT, [], [], played.decisions - 1)


def test_the_note_tells_how_to_stop_games_sooner_at_the_default_limit() -> None:
    assert decision_limit_note(0, 10, 50) is None
    raised = decision_limit_note(1, 10, 50)
    assert raised is not None and "1 of 10 games reached the decision limit (50 decisions) and was stopped" in raised
    assert "let them run longer with --max-decisions (at most 20,000)" in raised
    sooner = decision_limit_note(3, 10, MAX_DECISIONS, logs=True)
    assert sooner is not None and "(20,000 decisions)" in sooner
    assert "--max-decisions N stops them sooner" in sooner and "--log-dir" in sooner
    assert "run longer" not in sooner
