"""Bot-against-bot simulations: many games, in parallel processes, summarised.

Game i is played with the seed `derive_seed(seed, i)` and its bots are seeded
from that game seed and their seat, so a game's outcome depends only on
(seed, i): the results are the same whatever the number of worker processes.
"""

from __future__ import annotations

import multiprocessing
import signal
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any, TypeVar, cast

import attrs

from .bots import bot_decision, derive_seed, make_bot, out_of_turn_choice, seat_bots
from .errors import PackError, RulesError
from .game import Game, load
from .lang.values import label_of
from .limits import MAX_DECISIONS, MAX_GAMES
from .log import pack_ref, write_log
from .raybackend import check_address
from .stats import mean, rate_entry

DECISION_LIMIT = "decision limit"
"""The end reason of a game stopped at the decision limit before its end."""

BOT_SEED_SALT = 7919

LOG_PATTERN = "game-*.jsonl"
"""The names of the logs `--log-dir` gets (`log_name`): `simulate` refuses a folder that holds one already."""


def log_name(index: int) -> str:
    """The file name of game `index`'s log in a log folder."""
    return f"game-{index:05d}.jsonl"


@attrs.define
class GameRecord:
    """What one simulated game came to."""

    index: int
    seed: int
    bots: list[str]
    winners: list[int]
    reason: str
    turns: int
    decisions: int
    groups: dict[str, list[str]]
    error: str | None = None
    places: list[int] = attrs.Factory(list)
    """Each seat's final place (1 is best, ties share a place); empty if the game did not finish."""


def cut_short(record: GameRecord) -> bool:
    """Whether the game was stopped at the decision limit before its end (a game the pack ended has places)."""
    return record.reason == DECISION_LIMIT and record.error is None and not record.places


def check_decision_limit(max_decisions: int) -> int:
    """`max_decisions`, refused unless a whole number from 1 to `MAX_DECISIONS`."""
    if isinstance(max_decisions, bool) or not isinstance(max_decisions, int) \
            or not 1 <= max_decisions <= MAX_DECISIONS:
        raise PackError(f"the decision limit must be a whole number from 1 to {MAX_DECISIONS:,}, "
                        f"not {max_decisions!r}")
    return max_decisions


def game_seed(seed: int, index: int) -> int:
    return derive_seed(seed, index)


def seats_for(bots: list[str], index: int, rotate: bool) -> list[str]:
    """The bots of game `index`; rotated by one seat per game when asked, so no bot keeps the best seat."""
    if not rotate:
        return list(bots)
    shift = index % len(bots)
    return bots[-shift:] + bots[:-shift] if shift else list(bots)


def play_game(game: Game, players: int, seed: int, bots: list[str], index: int = 0,
              log_dir: str | Path | None = None, max_decisions: int = MAX_DECISIONS) -> GameRecord:
    """Play one game between bots and record its outcome (and its log, if `log_dir` is given)."""
    decisions = 0
    try:
        state = game.new_game(players=players, seed=seed)
    except RulesError as exc:
        return GameRecord(index, seed, bots, [], "error", 0, 0, {}, f"setup: {exc}")
    seated = [make_bot(name, game, derive_seed(seed, BOT_SEED_SALT, seat)) for seat, name in enumerate(bots)]
    error: str | None = None
    reason = ""
    in_a_row = 0
    try:
        while not state.is_terminal:
            if decisions >= max_decisions:
                reason = DECISION_LIMIT
                break
            extra = out_of_turn_choice(state, seated, in_a_row)  # players acting out of turn, if any
            in_a_row = in_a_row + 1 if extra is not None else 0
            if extra is not None:
                state.apply(extra)
                decisions += 1
                continue
            player = state.players_to_decide()[0]
            state.apply(bot_decision(seated[player], state, player), player=player)
            decisions += 1
    except RulesError as exc:
        error = str(exc)
        reason = "error"
    result = state.result
    if result is not None:
        reason = str(result["reason"])
    groups: dict[str, list[str]] = {}
    if error is None:
        try:
            groups = {name: [label_of(game.model, state.evaluate(fn, p)) for p in range(players)]
                      for name, fn in game.groups.items()}
        except RulesError as exc:
            error, reason = f"report group: {exc}", "error"
    if log_dir is not None:
        write_log(state, Path(log_dir) / log_name(index))
    return GameRecord(index, seed, list(bots), list(result["winners"]) if result else [], reason,
                      int(state.raw["flow"]["turn"]), decisions, groups, error,
                      list(result["places"]) if result else [])


# ---------------------------------------------------------------- worker processes

_WORKER_GAME: Game | None = None


def _init_worker(ref: str, content_hash: str) -> None:
    """Give the worker its game: inherited from the parent when the process was forked, else loaded.

    Ctrl-C (SIGINT to the whole process group) is left to the parent, which then terminates the workers:
    a worker that caught it would only lose its chunk, or go on to the next one."""
    global _WORKER_GAME
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if _WORKER_GAME is not None and _WORKER_GAME.content_hash == content_hash:
        return
    _WORKER_GAME = load(ref)


def _run_chunk(indices: list[int], players: int, seed: int, bots: list[str], rotate: bool,
               log_dir: str | None, max_decisions: int = MAX_DECISIONS) -> list[GameRecord]:
    assert _WORKER_GAME is not None, "worker started without its game"
    return [play_game(_WORKER_GAME, players, game_seed(seed, i), seats_for(bots, i, rotate), i, log_dir,
                      max_decisions)
            for i in indices]


def chunk_size(games: int, workers: int) -> int:
    """Games per task: small, so that the workers finish together (games differ in length by 2-3x and
    a task costs a millisecond against a game's tenths of a second), but not one by one on long runs."""
    return max(1, min(4, games // (workers * 16)))


CHUNKS_IN_FLIGHT_PER_WORKER = 3
"""Chunks handed to the pool per worker at any time: enough to keep each busy, few enough that a run of
millions of games holds only a few chunks, not every one of them, before its first result."""

T = TypeVar("T")
R = TypeVar("R")


class _RecordingContext:
    """A multiprocessing context that keeps the processes it makes, so that the pool's workers can be
    terminated through their own public `terminate` (ProcessPoolExecutor has no such call before 3.14)."""

    def __init__(self, base: BaseContext) -> None:
        self._base = base
        self.processes: list[BaseProcess] = []

    def __getattr__(self, name: str) -> Any:
        if name == "_base":  # not set yet (an object being copied or unpickled)
            raise AttributeError(name)
        return getattr(self._base, name)

    def Process(self, *args: Any, **kwargs: Any) -> BaseProcess:  # noqa: N802 - the context's own name
        process: BaseProcess = self._base.Process(*args, **kwargs)  # type: ignore[attr-defined]
        self.processes.append(process)
        return process


class WorkerPool:
    """Worker processes with an executor's `submit`, a `close` that waits for the tasks submitted, and a
    `stop` that cancels the tasks not yet started and terminates the workers now, running tasks included."""

    def __init__(self, max_workers: int, initializer: Callable[..., object], initargs: tuple[Any, ...]) -> None:
        self._context = _RecordingContext(multiprocessing.get_context())
        self._executor = ProcessPoolExecutor(max_workers, mp_context=cast(BaseContext, self._context),
                                             initializer=initializer, initargs=initargs)

    def submit(self, fn: Callable[..., R], /, *args: Any) -> Future[R]:
        return self._executor.submit(fn, *args)

    def close(self) -> None:
        self._executor.shutdown(wait=True)

    def stop(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
        workers = [process for process in self._context.processes if process.is_alive()]
        for process in workers:
            process.terminate()
        for process in workers:
            process.join(STOP_GRACE_SECONDS)
            if process.is_alive():
                process.kill()
                process.join()


STOP_GRACE_SECONDS = 2.0
"""How long a stopped worker may take to end after SIGTERM before it is killed."""


def chunks_of(games: int, size: int) -> Iterator[list[int]]:
    """The game indices 0..games-1 in chunks of `size`, made one at a time as they are asked for."""
    for start in range(0, games, size):
        yield list(range(start, min(start + size, games)))


def results_as_completed(submit: Callable[[T], Future[R]], tasks: Iterable[T], in_flight: int) -> Iterator[R]:
    """Submit each task and yield its result as it completes, with at most `in_flight` tasks submitted
    whose results have not been yielded: the next task is taken from `tasks` only when one finishes."""
    pending: set[Future[R]] = set()
    for task in tasks:
        pending.add(submit(task))
        if len(pending) >= in_flight:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            yield from (future.result() for future in done)
    while pending:
        done, pending = wait(pending, return_when=FIRST_COMPLETED)
        yield from (future.result() for future in done)


def run_games(game: Game, games: int, players: int, bots: list[str], seed: int = 0, workers: int = 1,
              rotate: bool = False, log_dir: str | Path | None = None,
              progress: Callable[[int], None] | None = None, backend: str = "local",
              address: str | None = None, max_decisions: int = MAX_DECISIONS) -> list[GameRecord]:
    """Play `games` games, in `workers` local processes or on Ray; records come back in game order.

    A game still running after `max_decisions` decisions is stopped, its reason `DECISION_LIMIT`."""
    if not 1 <= games <= MAX_GAMES:
        raise PackError(f"the number of games must be from 1 to {MAX_GAMES:,}, not {games}")
    check_decision_limit(max_decisions)
    if workers < 1:
        raise PackError("the number of workers must be at least 1")
    check_address(backend, address)
    if log_dir is not None:
        Path(log_dir).mkdir(parents=True, exist_ok=True)
    logs = str(log_dir) if log_dir is not None else None
    records: list[GameRecord] = []
    if backend == "ray":
        from .raybackend import run_games_ray

        size = max(1, min(25, games // 16))
        return run_games_ray(game, chunks_of(games, size), players, bots, seed, rotate, logs, address,
                             progress, CHUNKS_IN_FLIGHT_PER_WORKER, max_decisions)
    if backend != "local":
        raise PackError(f"unknown backend '{backend}': local or ray")
    if workers == 1:
        for i in range(games):
            records.append(play_game(game, players, game_seed(seed, i), seats_for(bots, i, rotate), i, logs,
                                     max_decisions))
            if progress:
                progress(1)
        return records
    chunks = chunks_of(games, chunk_size(games, workers))
    global _WORKER_GAME
    inherited = _WORKER_GAME
    _WORKER_GAME = game  # a forked worker starts with it (no second load); a spawned one loads the pack
    try:
        pool = WorkerPool(max_workers=workers, initializer=_init_worker,
                          initargs=(pack_ref(game), game.content_hash))

        def play_chunk(chunk: list[int]) -> Future[list[GameRecord]]:
            return pool.submit(_run_chunk, chunk, players, seed, bots, rotate, logs, max_decisions)

        try:
            for done in results_as_completed(play_chunk, chunks, CHUNKS_IN_FLIGHT_PER_WORKER * workers):
                records.extend(done)
                if progress:
                    progress(len(done))
        except BaseException:
            # Ctrl-C, or a chunk that failed: stop now. Waiting for the chunks handed out would play (and
            # log) up to CHUNKS_IN_FLIGHT_PER_WORKER chunks per worker more, minutes with a slow bot.
            pool.stop()
            raise
        pool.close()
    finally:
        _WORKER_GAME = inherited
    records.sort(key=lambda r: r.index)
    return records


# ---------------------------------------------------------------- summary


def summarize(game: Game, records: list[GameRecord], players: int, seed: int, bots: list[str],
              seconds: float, workers: int = 1, rotate: bool = False,
              max_decisions: int = MAX_DECISIONS) -> dict[str, Any]:
    """The numbers a designer reads: win rates with 95% intervals, lengths, end reasons, speed.

    A win shared by k players counts 1/k for each; a game stopped at the decision limit (`max_decisions`, the
    limit the games were played with) has no winner. Everything but the timing keys depends only on the games
    played.
    """
    n = len(records)
    seat_wins = [0.0] * players
    bot_wins: dict[str, float] = {}
    bot_games: dict[str, int] = {}
    group_wins: dict[str, dict[str, float]] = {name: {} for name in game.groups}
    group_games: dict[str, dict[str, int]] = {name: {} for name in game.groups}
    reasons: dict[str, int] = {}
    errors: list[str] = []
    for record in records:
        reasons[record.reason] = reasons.get(record.reason, 0) + 1
        if record.error is not None:
            errors.append(f"game {record.index} (seed {record.seed}): {record.error}")
        share = 1.0 / len(record.winners) if record.winners else 0.0
        for seat, bot in enumerate(record.bots):
            won = share if seat in record.winners else 0.0
            seat_wins[seat] += won
            bot_wins[bot] = bot_wins.get(bot, 0.0) + won
            bot_games[bot] = bot_games.get(bot, 0) + 1
            for name, values in record.groups.items():
                value = values[seat]
                group_wins[name][value] = group_wins[name].get(value, 0.0) + won
                group_games[name][value] = group_games[name].get(value, 0) + 1
    decisions = [r.decisions for r in records]
    total_decisions = sum(decisions)
    seat_bots = bots if not rotate else ["rotating"] * players
    return {
        "pack": game.name,
        "version": game.version,
        "players": players,
        "games": n,
        "seed": seed,
        "bots": list(bots),
        "rotate": rotate,
        "wins_by_seat": [{"seat": s + 1, "bot": seat_bots[s], **rate_entry(seat_wins[s], n)} for s in range(players)],
        "wins_by_bot": {bot: rate_entry(bot_wins[bot], bot_games[bot]) for bot in sorted(bot_wins)},
        "groups": {name: {value: rate_entry(group_wins[name][value], group_games[name][value])
                          for value in sorted(group_games[name])} for name in game.groups},
        "end_reasons": dict(sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))),
        "errors": errors,
        "mean_turns": round(mean([r.turns for r in records]), 3),
        "mean_decisions": round(mean([float(d) for d in decisions]), 3),
        "min_decisions": min(decisions) if decisions else 0,
        "max_decisions": max(decisions) if decisions else 0,
        "turns_per_game": [r.turns for r in records],
        "decision_limit": max_decisions,
        "cut_at_decision_limit": sum(1 for r in records if cut_short(r)),
        "workers": workers,
        "seconds": round(seconds, 3),
        "games_per_second": round(n / seconds, 3) if seconds > 0 else 0.0,
        "decisions_per_second": round(total_decisions / seconds, 1) if seconds > 0 else 0.0,
    }


TIMING_KEYS = ("workers", "seconds", "games_per_second", "decisions_per_second")
"""Summary keys that depend on the machine rather than on the games."""


def simulate(game: Game, games: int, players: int, bots: list[str], seed: int = 0, workers: int = 1,
             rotate: bool = False, log_dir: str | Path | None = None,
             progress: Callable[[int], None] | None = None, backend: str = "local",
             address: str | None = None, max_decisions: int = MAX_DECISIONS) -> dict[str, Any]:
    """Run a simulation and return its summary; `bots` names one bot for all seats or one per seat.

    A game still running after `max_decisions` decisions (1 to `MAX_DECISIONS`) is stopped without a winner."""
    if not game.min_players <= players <= game.max_players:
        raise game.players_refused(players)
    bots = seat_bots(bots, players)
    started = time.perf_counter()
    records = run_games(game, games, players, bots, seed, workers, rotate, log_dir, progress, backend, address,
                        max_decisions)
    return summarize(game, records, players, seed, bots, time.perf_counter() - started, workers, rotate,
                     max_decisions)
