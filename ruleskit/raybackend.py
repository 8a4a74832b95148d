"""Spreading simulations and property tests over a Ray cluster (extra `ray`).

A game's outcome depends only on the master seed and its index (see
`simulate`), and a property-test run of one player count only on its seed, so
the cluster gives exactly the local results: the work is cut into the same
pieces, each piece runs the same code wherever it lands, and the results are
put back in order.

Each worker loads the pack itself, by its built-in name or its folder
(`log.pack_ref`): on a real cluster the pack folder must exist at the same path
on every node (or be a built-in pack), and ruleskit must be installed there.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterable
from typing import Any

from .errors import PackError
from .game import Game, load
from .limits import MAX_DECISIONS
from .log import pack_ref

_GAMES: dict[str, Game] = {}
# How long a cluster's address has to answer before it is taken as unreachable. Ray itself retries an address
# that does not answer for minutes, printing its own warnings, before it gives up.
CONNECT_TIMEOUT_SECONDS = 5.0


def check_address(backend: str, address: str | None) -> None:
    """Refuse a cluster address before any work: one given without the ray backend (which would ignore it and
    do the work here), or one that nothing answers at."""
    if address is None:
        return
    if backend != "ray":
        raise PackError(f"the address '{address}' names a Ray cluster: it needs the ray backend (--backend ray)")
    check_reachable(address)


def ray_module(address: str | None = None) -> Any:
    """The ray module, connected to `address` (or a local instance) unless already connected."""
    try:
        import ray
    except ImportError:
        raise PackError("the ray backend needs Ray: pip install 'ruleskit[ray]'") from None
    if not ray.is_initialized():
        try:
            ray.init(address=address, log_to_driver=False, include_dashboard=False)
        except (ValueError, ConnectionError) as exc:  # an address Ray cannot read or reach: not a traceback
            raise PackError(f"cannot join the Ray cluster at '{address}': {exc}") from None
    return ray


def check_reachable(address: str, timeout: float = CONNECT_TIMEOUT_SECONDS) -> None:
    """Refuse a cluster address of the form `host:port` that nothing answers at within `timeout` seconds.

    Other forms (`auto`, `local`, `ray://...`) are left to Ray, which reads or refuses them at once.
    """
    host, colon, port = address.rpartition(":")
    if not colon or "://" in address or not port.isdigit():
        return
    host = host.strip("[]")  # an IPv6 address is written in brackets before its port
    if int(port) > 65535:
        raise PackError(f"cannot join the Ray cluster at '{address}': port {port} is out of range (0-65535)")
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            pass
    except TimeoutError:
        raise PackError(f"cannot join the Ray cluster at '{address}': no answer from {host} port {port} "
                        f"within {timeout:g} s") from None
    except OSError as exc:  # refused, unreachable, no such host
        raise PackError(f"cannot join the Ray cluster at '{address}': cannot connect to {host} port {port} "
                        f"({exc.strerror or exc})") from None


def _game(ref: str) -> Game:
    if ref not in _GAMES:
        _GAMES[ref] = load(ref)
    return _GAMES[ref]


def _play_chunk(ref: str, indices: list[int], players: int, seed: int, bots: list[str], rotate: bool,
                log_dir: str | None, max_decisions: int) -> list[Any]:
    from .simulate import game_seed, play_game, seats_for

    game = _game(ref)
    return [play_game(game, players, game_seed(seed, i), seats_for(bots, i, rotate), i, log_dir, max_decisions)
            for i in indices]


def run_games_ray(game: Game, chunks: Iterable[list[int]], players: int, bots: list[str], seed: int, rotate: bool,
                  log_dir: str | None, address: str | None,
                  progress: Callable[[int], None] | None = None, in_flight_per_cpu: int = 3,
                  max_decisions: int | None = None) -> list[Any]:
    """The game records of every chunk, played as Ray tasks; in game order. Each game is stopped after
    `max_decisions` decisions (default `MAX_DECISIONS`).

    Chunks are taken from `chunks` as tasks finish, at most `in_flight_per_cpu` per CPU of the cluster at a
    time, so that a run of millions of games does not make and queue every task at its start. On an error
    or Ctrl-C, the tasks still out are cancelled."""
    limit = MAX_DECISIONS if max_decisions is None else max_decisions
    ray = ray_module(address)
    task = ray.remote(_play_chunk)
    ref = pack_ref(game)
    in_flight = max(1, in_flight_per_cpu * int(ray.cluster_resources().get("CPU", 1)))
    records: list[Any] = []
    pending: list[Any] = []
    waiting = iter(chunks)
    try:
        while True:
            for chunk in waiting:
                pending.append(task.remote(ref, chunk, players, seed, bots, rotate, log_dir, limit))
                if len(pending) >= in_flight:
                    break
            if not pending:
                break
            done, pending = ray.wait(pending, num_returns=1)
            for finished in ray.get(done):
                records.extend(finished)
                if progress:
                    progress(len(finished))
    except BaseException:
        for unfinished in pending:
            ray.cancel(unfinished, force=True)
        raise
    records.sort(key=lambda r: r.index)
    return records


def _check_count(ref: str, count: int, share: list[tuple[int, int]], options: dict[str, Any]) -> tuple[Any, Any, Any]:
    from .testing.runner import check_count

    # Property tests check every `ensure` and [properties], as the local run does.
    part, failure = check_count(_game(ref).with_property_checks(), count, share, **options)
    saved = None
    if failure is not None and failure.state is not None:
        # A state holds its compiled game: send it as JSON, rebuilt against the driver's game.
        saved, failure.state = failure.state.to_json(), None
    return part, failure, saved


def check_counts_ray(game: Game, shares: list[tuple[int, list[tuple[int, int]]]], options: dict[str, Any],
                     address: str | None) -> list[tuple[Any, Any]]:
    """Each player count's (game index, seed) list property-tested as one Ray task; results in the order given."""
    from .runtime.state import State

    ray = ray_module(address)
    task = ray.remote(_check_count)
    ref = pack_ref(game)
    results = []
    for part, failure, saved in ray.get([task.remote(ref, count, share, options) for count, share in shares]):
        if failure is not None and saved is not None:
            failure.state = State.from_json(game, saved, invariants=False)  # it may be the invariant failing
        results.append((part, failure))
    return results
