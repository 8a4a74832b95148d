"""The runner never loses a catch, keeps to its time budget, interleaves player counts, explores and counts coverage.

The toy packs: `combination_lock` pays far too much for a game's fourth try of
the lock, a rule random play rarely reaches (one try against sixty dial
settings); `combination_lock_small` has a three-setting dial, so random play
meets the same bug in its first game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ruleskit.cli import main
from ruleskit.errors import PackError
from ruleskit.testing import budget
from ruleskit.testing.budget import parse_duration
from ruleskit.testing.runner import Report, check_log, check_pack
from ruleskit.testing.strategies import Watcher

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "tests/packs/combination_lock"
SMALL_LOCK = ROOT / "tests/packs/combination_lock_small"
DICE_RACE = ROOT / "tests/packs/dice_race"


class FakeClock:
    """A perf_counter that moves one second each time it is read: a budget ends after so many checks."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += 1.0
        return self.now


def logged_actions(path: Path) -> list[str]:
    return [json.loads(line)["action"] for line in path.read_text().splitlines()
            if json.loads(line)["type"] == "decision"]


def test_durations_read_as_people_write_them() -> None:
    assert parse_duration("3m") == 180
    assert parse_duration("90s") == 90
    assert parse_duration("2m30s") == 150
    assert parse_duration("1h") == 3600
    assert parse_duration("45") == 45
    for bad in ("soon", "3 minutes", "0s", "2x"):
        with pytest.raises(PackError, match="duration"):
            parse_duration(bad)


def test_the_failing_game_is_written_before_shrinking_starts(tmp_path: Path) -> None:
    out = tmp_path / "failure.jsonl"
    seen: list[tuple[bool, bool]] = []

    def progress(report: Report) -> None:
        if report.failure is not None and not seen:
            seen.append((report.shrinking, out.is_file()))

    report = check_pack(SMALL_LOCK, games=5, out=out, progress=progress)
    assert seen == [(False, True)]  # the log existed when the failure was first reported, before any shrinking
    assert report.failure is not None and report.failure.name == "invariant score_small"
    # Shrunk to the four tries, and the log on disk is the shrunk game.
    assert [step.action for step in report.failure.steps] == ["try"] * 4
    assert logged_actions(out) == ["try"] * 4
    assert check_log(out, SMALL_LOCK).name == "invariant score_small"


def test_ctrl_c_while_shrinking_keeps_the_shortest_game_so_far(tmp_path: Path) -> None:
    out = tmp_path / "failure.jsonl"

    def progress(report: Report) -> None:
        if report.shrinking and report.shrink_attempts >= 3:
            raise KeyboardInterrupt

    report = check_pack(SMALL_LOCK, games=5, out=out, progress=progress)
    assert report.stopped == "an interruption (Ctrl-C)"
    assert report.failure is not None and report.failure.log_path == out
    assert logged_actions(out) == [step.action for step in report.failure.steps]
    assert check_log(out, SMALL_LOCK).name == "invariant score_small"
    assert "stopped by an interruption" in report.summary()


def test_a_run_interrupted_before_any_failure_exits_130_not_as_a_pass(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from ruleskit.testing import runner

    def interrupted(self: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(runner.GameRun, "play", interrupted)
    assert main(["test", str(SMALL_LOCK), "--games", "3", "-q"]) == 130
    assert "stopped by an interruption (Ctrl-C)" in capsys.readouterr().out
    assert main(["test", str(SMALL_LOCK), "--games", "3", "--json"]) == 130
    assert json.loads(capsys.readouterr().out)["stopped"] == "an interruption (Ctrl-C)"


def test_a_budget_that_ends_while_shrinking_prints_the_failure_and_writes_the_log(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(budget, "time", FakeClock())  # every check of the deadline is a second
    out = tmp_path / "lock.jsonl"
    code = main(["test", str(SMALL_LOCK), "--time", "40s", "--players", "2", "--out", str(out), "-q"])
    captured = capsys.readouterr()
    assert code == 1
    assert "stopped by the time budget (40s), the shortest failing game so far is kept" in captured.out
    assert "FAILED: invariant score_small" in captured.err and f"replay log: {out}" in captured.err
    assert logged_actions(out)[-1] == "try"
    assert main(["test", str(SMALL_LOCK), "--log", str(out)]) == 1


def test_a_budget_alone_plays_games_until_time_is_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(budget, "time", FakeClock())
    report = check_pack(DICE_RACE, games=None, time_budget=400, max_decisions=30)
    assert report.ok and report.stopped == "the time budget (6m40s)"
    assert sum(report.games.values()) >= 3


def test_player_counts_take_turns() -> None:
    class Seats(Watcher):
        def __init__(self) -> None:
            self.counts: list[int] = []

        def started(self, run: Any, state: Any) -> None:
            self.counts.append(run.players)

    seats = Seats()
    report = check_pack(DICE_RACE, games=7, max_decisions=10, watchers=[seats])
    assert report.ok and seats.counts == [2, 3, 4, 2, 3, 4, 2]


def test_exploration_finds_the_rare_bug_that_random_play_misses(tmp_path: Path) -> None:
    random_report = check_pack(LOCK, games=12, seed=1, thorough_every=8, out=tmp_path / "random.jsonl")
    assert random_report.ok, random_report.failure and random_report.failure.describe()
    explored = check_pack(LOCK, games=12, seed=1, thorough_every=8, policy="explore", out=tmp_path / "explore.jsonl")
    assert explored.failure is not None and explored.failure.name == "invariant score_small"
    assert [step.action for step in explored.failure.steps] == ["try"] * 4
    assert logged_actions(tmp_path / "explore.jsonl") == ["try"] * 4


def test_coverage_names_the_unreached_branch_with_its_file_and_line(capsys: pytest.CaptureFixture[str]) -> None:
    report = check_pack(LOCK, games=4, seed=2, thorough_every=8, coverage=True)
    assert report.ok and report.coverage is not None
    missed = {(item.kind, item.name): item.where for item in report.coverage.unreached()}
    where = missed[("branch", "proc try_lock: elif arm")]
    assert where.endswith("lock.rk:6")
    reached = {item.name: item.hits for item in report.coverage.items()}
    assert reached["dial"][2] > 0 and reached["dial"][3] > 0  # taken at both player counts
    assert reached["done (thirty moves were made)"] == {2: 2, 3: 2}

    assert main(["test", str(LOCK), "--games", "2", "--coverage", "-q"]) == 0
    out = capsys.readouterr().out
    assert "never reached:" in out and "branch proc try_lock: elif arm at " in out and "lock.rk:6" in out
    assert main(["test", str(LOCK), "--games", "2", "--coverage", "--json"]) == 0
    items = json.loads(capsys.readouterr().out)["coverage"]["items"]
    elif_arm = next(item for item in items if item["name"] == "proc try_lock: elif arm")
    assert elif_arm["line"] == 6 and elif_arm["file"].endswith("lock.rk") and elif_arm["hits"] == {"2": 0, "3": 0}


def test_the_same_seed_gives_the_same_run() -> None:
    first = check_pack(DICE_RACE, games=6, seed=4, max_decisions=60, policy="explore", coverage=True)
    again = check_pack(DICE_RACE, games=6, seed=4, max_decisions=60, policy="explore", coverage=True)
    assert (first.decisions, first.games) == (again.decisions, again.games)
    assert first.coverage is not None and again.coverage is not None
    assert first.coverage.to_json() == again.coverage.to_json()


def test_a_new_action_that_is_refused_is_caught_between_the_costly_checks() -> None:
    import ruleskit
    from ruleskit.runtime.engine import Action
    from ruleskit.testing.invariants import GameChecks, InvariantFailure

    game = ruleskit.load(DICE_RACE)
    state = game.new_game(players=2, seed=1)
    checks = GameChecks(thorough_every=4)
    checks.check(state, 0)  # a costly step: every listed action applied, the state remembered
    state.apply(state.legal_actions()[0])
    bogus = Action("step:nowhere", "Step", state.players_to_decide()[0], {"action": "step", "args": {"to": "nowhere"}})
    state._legal = state.legal_actions() + [bogus]
    with pytest.raises(InvariantFailure, match="offered but refused"):
        checks.check(state, 1)  # not a costly step, but the id is new in this game


def test_a_logged_decision_without_its_player_is_rechecked_as_replay_takes_it(tmp_path: Path) -> None:
    # `"player": null` (or no player) is the first player offered the id, in `replay` and here alike: it was
    # matched against no player, and a log that replays was reported as the pack's failure ("not offered").
    import ruleskit
    from ruleskit.log import replay, write_log

    state = ruleskit.load(DICE_RACE).new_game(players=2, seed=4)
    for _ in range(8):
        state.apply(state.legal_actions()[0])
    log = tmp_path / "race.jsonl"
    write_log(state, log)
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    for line in lines:
        if line["type"] == "decision":
            line["player"] = None
    log.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    assert replay(log, DICE_RACE) == state
    assert check_log(log, DICE_RACE) is None
