"""Parallel simulation: workers share the parent's compiled game when they can, and finish together."""

from __future__ import annotations

import multiprocessing
import shutil
from pathlib import Path

import pytest

import ruleskit
from ruleskit.simulate import chunk_size, run_games

DICE_RACE = Path(__file__).parent.parent / "packs" / "dice_race"


@pytest.mark.skipif(multiprocessing.get_start_method() != "fork", reason="workers are forked only on some systems")
def test_forked_workers_use_the_parents_game_without_loading_it(tmp_path: Path) -> None:
    pack = tmp_path / "dice_race"
    shutil.copytree(DICE_RACE, pack)
    game = ruleskit.load(pack, cache=False)
    one = run_games(game, 6, 2, ["random", "random"], seed=5, workers=1)
    shutil.rmtree(pack)  # a worker that loaded the pack again would fail now
    two = run_games(game, 6, 2, ["random", "random"], seed=5, workers=2)
    assert [r.error for r in two] == [None] * 6
    assert [(r.index, r.winners, r.decisions) for r in two] == [(r.index, r.winners, r.decisions) for r in one]


def test_tasks_are_small_enough_for_the_workers_to_finish_together() -> None:
    assert chunk_size(8, 2) == 1
    assert chunk_size(60, 2) == 1
    assert chunk_size(200, 2) == 4
    assert chunk_size(10_000, 2) == 4
    assert chunk_size(200, 8) == 1
    for games, workers in ((1, 2), (7, 3), (60, 2), (200, 2)):
        tasks = -(-games // chunk_size(games, workers))
        assert tasks >= min(games, 4 * workers)  # several tasks per worker, so one slow task cannot hold up the end
