"""Parallel simulation hands the pool a few chunks of games at a time, never every chunk up front, and an
interrupt (Ctrl-C) stops it at once: no more chunks handed out, and the workers terminated."""

from __future__ import annotations

import multiprocessing
import threading
import time
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
    closed = False
    stopped = False

    def __init__(self, max_workers: int = 1, initializer: Callable[..., object] | None = None,
                 initargs: tuple[Any, ...] = ()) -> None:
        # One thread: the games never share the game object at once. The worker initializer is for a
        # process of its own (run_games has given this one the game already).
        super().__init__(max_workers=1)
        self.lock = threading.Lock()
        self.in_flight = 0
        type(self).most_in_flight = type(self).submitted = 0
        type(self).closed = type(self).stopped = False

    def close(self) -> None:
        type(self).closed = True
        self.shutdown(wait=True)

    def stop(self) -> None:
        type(self).stopped = True
        self.shutdown(wait=False, cancel_futures=True)

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
    monkeypatch.setattr(simulation, "WorkerPool", CountingPool)  # the same calls, run in threads here
    two = run_games(game, 200, 2, ["random", "random"], seed=5, workers=2)
    assert CountingPool.submitted == 50  # 200 games in chunks of 4
    assert CountingPool.most_in_flight <= CHUNKS_IN_FLIGHT_PER_WORKER * 2
    assert CountingPool.closed and not CountingPool.stopped
    assert [r.index for r in two] == list(range(200))
    assert [(r.index, r.seed, r.winners, r.decisions, r.reason) for r in two] == \
        [(r.index, r.seed, r.winners, r.decisions, r.reason) for r in one]


def interrupt_after_the_first_chunk(n: int) -> None:
    """A progress callback that is Ctrl-C pressed while the first records are taken."""
    raise KeyboardInterrupt


def test_an_interrupt_hands_out_no_more_chunks_and_stops_the_pool(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    game = ruleskit.load(DICE_RACE, cache=False)
    monkeypatch.setattr(simulation, "WorkerPool", CountingPool)
    with pytest.raises(KeyboardInterrupt):
        run_games(game, 200, 2, ["random", "random"], seed=5, workers=2, log_dir=tmp_path / "logs",
                  progress=interrupt_after_the_first_chunk)
    assert CountingPool.submitted == CHUNKS_IN_FLIGHT_PER_WORKER * 2  # those handed out before the first result
    assert CountingPool.stopped and not CountingPool.closed  # stopped at once, not waited for


def test_an_error_from_a_chunk_stops_the_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    game = ruleskit.load(DICE_RACE, cache=False)
    monkeypatch.setattr(simulation, "WorkerPool", CountingPool)

    def failing(*args: Any) -> None:
        raise RuntimeError("a chunk failed")

    monkeypatch.setattr(simulation, "_run_chunk", failing)
    with pytest.raises(RuntimeError, match="a chunk failed"):
        run_games(game, 200, 2, ["random", "random"], seed=5, workers=2)
    assert CountingPool.stopped and not CountingPool.closed


REAL_RUN_CHUNK = simulation._run_chunk
ENDLESS_CHUNK_SECONDS = 10.0  # what the interrupted run would wait per chunk if the workers were not terminated


def first_chunk_then_endless(indices: list[int], players: int, seed: int, bots: list[str], rotate: bool,
                             log_dir: str | None, max_decisions: int) -> list[Any]:
    """Chunk 0 is played; every other chunk is one that a worker is still playing when Ctrl-C comes."""
    if indices[0] == 0:
        return REAL_RUN_CHUNK(indices, players, seed, bots, rotate, log_dir, max_decisions)
    time.sleep(ENDLESS_CHUNK_SECONDS)
    assert log_dir is not None
    (Path(log_dir) / f"finished-{indices[0]}").touch()
    return []


@pytest.mark.skipif(multiprocessing.get_start_method() != "fork",
                    reason="the workers see the test's chunk function only when forked")
def test_an_interrupt_terminates_the_workers_and_their_running_chunks(monkeypatch: pytest.MonkeyPatch,
                                                                      tmp_path: Path) -> None:
    game = ruleskit.load(DICE_RACE, cache=False)
    monkeypatch.setattr(simulation, "_run_chunk", first_chunk_then_endless)
    logs = tmp_path / "logs"
    with pytest.raises(KeyboardInterrupt):
        run_games(game, 200, 2, ["random", "random"], seed=5, workers=2, log_dir=logs,
                  progress=interrupt_after_the_first_chunk)
    # The workers are gone: a terminated worker is reaped by the system a moment later on a loaded machine,
    # while one left running its endless chunk never goes.
    waited_until = time.monotonic() + 20
    while multiprocessing.active_children() and time.monotonic() < waited_until:
        time.sleep(0.05)
    assert multiprocessing.active_children() == []  # ...
    assert sorted(path.name for path in logs.iterdir()) == [f"game-{i:05d}.jsonl" for i in range(4)]
    # ... and no chunk they were given went on to its end (it would have written `finished-N`)
