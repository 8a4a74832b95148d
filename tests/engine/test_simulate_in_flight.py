"""Parallel simulation hands the pool a few chunks of games at a time, never every chunk up front."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import ruleskit
from ruleskit import simulate as simulation
from ruleskit.simulate import CHUNKS_IN_FLIGHT_PER_WORKER, chunks_of, results_as_completed, run_games

DICE_RACE = Path(__file__).parent.parent / "packs" / "dice_race"


class CountingPool(ThreadPoolExecutor):
    """A pool (a thread of this process) that counts the tasks submitted whose result nobody took yet."""

    most_in_flight = 0
    submitted = 0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["max_workers"] = 1  # one thread: the games never share the game object at once
        super().__init__(*args, **kwargs)
        self.lock = threading.Lock()
        self.in_flight = 0
        type(self).most_in_flight = type(self).submitted = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future = super().submit(fn, *args, **kwargs)
        with self.lock:
            self.in_flight += 1
            type(self).submitted += 1
            type(self).most_in_flight = max(type(self).most_in_flight, self.in_flight)
        taken = [False]
        result = future.result

        def counted_result(timeout: float | None = None) -> Any:
            if not taken[0]:
                taken[0] = True
                with self.lock:
                    self.in_flight -= 1
            return result(timeout)

        future.result = counted_result  # type: ignore[method-assign]
        return future


def test_results_come_with_a_bounded_number_of_tasks_in_flight() -> None:
    pulled = []

    def tasks() -> Iterator[int]:
        for task in range(500):
            pulled.append(task)
            yield task

    with CountingPool() as pool:
        seen = []
        for value in results_as_completed(lambda task: pool.submit(lambda: task * 2), tasks(), in_flight=4):
            assert len(pulled) - len(seen) <= 4  # tasks are taken only as earlier ones are done
            seen.append(value)
    assert sorted(seen) == [2 * task for task in range(500)]
    assert CountingPool.submitted == 500 and CountingPool.most_in_flight <= 4


def test_chunks_are_made_as_they_are_asked_for() -> None:
    chunks = chunks_of(10_000_000_000, 4)
    assert next(chunks) == [0, 1, 2, 3] and next(chunks) == [4, 5, 6, 7]
    assert list(chunks_of(10, 4)) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]


def test_run_games_keeps_few_chunks_in_flight_and_gives_the_same_records(monkeypatch: pytest.MonkeyPatch) -> None:
    game = ruleskit.load(DICE_RACE, cache=False)
    one = run_games(game, 200, 2, ["random", "random"], seed=5, workers=1)
    monkeypatch.setattr(simulation, "ProcessPoolExecutor", CountingPool)  # the same calls, run in threads here
    two = run_games(game, 200, 2, ["random", "random"], seed=5, workers=2)
    assert CountingPool.submitted == 50  # 200 games in chunks of 4
    assert CountingPool.most_in_flight <= CHUNKS_IN_FLIGHT_PER_WORKER * 2
    assert [r.index for r in two] == list(range(200))
    assert [(r.index, r.seed, r.winners, r.decisions, r.reason) for r in two] == \
        [(r.index, r.seed, r.winners, r.decisions, r.reason) for r in one]
