"""`ruleskit test` on the real packs: random legal games hold every engine and pack invariant.

The CI portion plays a few hundred short Ophir games (cut at a fixed number of
decisions, pack invariants and cheap engine checks after every decision, the
costly engine checks every few decisions) plus 30 full games, 10 per player count.
Set RULESKIT_SLOW=1 for the long run: 150 full games, the costly engine checks
every 5 decisions.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ruleskit.testing.runner import check_pack as run_pack_test

ROOT = Path(__file__).resolve().parents[2]
SLOW = os.environ.get("RULESKIT_SLOW") == "1"
slow = pytest.mark.skipif(not SLOW, reason="set RULESKIT_SLOW=1 for the long property-test run")


def assert_ok(report) -> None:
    failure = report.failure.describe() if report.failure else ""
    assert report.ok, f"{report.summary()}\n{failure}\n{report.problems}"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ophir_short_games_hold_every_invariant(players: int) -> None:
    report = run_pack_test("ophir", games=70, players=[players], seed=players, max_decisions=40, thorough_every=8)
    assert_ok(report)
    assert report.games == {players: 70}
    assert report.decisions == 70 * 40  # random Ophir games last far longer than 40 decisions
    assert report.invariants >= 6


def test_ophir_full_games_hold_every_invariant() -> None:
    report = run_pack_test("ophir", games=30, players=[2, 3, 4], seed=11, thorough_every=200)
    assert_ok(report)
    assert report.games == {2: 10, 3: 10, 4: 10}
    assert report.cut_short == 0  # every game ran to its end, and its result was checked


def test_dice_race_games_hold_every_invariant() -> None:
    report = run_pack_test(ROOT / "tests/packs/dice_race", games=6, seed=3, thorough_every=5)
    assert_ok(report)
    assert report.games == {2: 2, 3: 2, 4: 2}


@slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_ophir_long_run(players: int) -> None:
    report = run_pack_test("ophir", games=50, players=[players], seed=100 + players, thorough_every=5)
    assert_ok(report)


def test_card_duel_games_hold_every_invariant() -> None:
    # Hidden hands and simultaneous picks: the view checks have secrets to guard here.
    report = run_pack_test(ROOT / "tests/packs/card_duel", games=12, seed=5, thorough_every=2)
    assert_ok(report)
    assert sum(report.games.values()) == 12 and report.cut_short == 0
