"""Shrinking a failing game with hypothesis, starting from the game that failed.

The run finds failures with its own policy, outside hypothesis, recording the
index chosen at each decision. Those indices are exactly the choices the
replay strategy below draws (the player count, the seed, then one index per
decision with more than one legal action), so the failing game is handed to
hypothesis as a stored example to reuse, and hypothesis shrinks it. Each
shorter game that fails the same way is reported as it is found.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from ..game import Game
from .strategies import SEEDS, Cutoff, GameRun, drawing_chooser

try:  # the stored-example format of hypothesis 6.1xx
    from hypothesis.database import InMemoryExampleDatabase, choices_to_bytes
except ImportError:  # pragma: no cover - an older hypothesis: failures are reported as found
    choices_to_bytes = None  # type: ignore[assignment]

_KEY = b"ruleskit-failing-game"


def can_shrink() -> bool:
    return choices_to_bytes is not None


def shrink_game(game: Game, counts: list[int], players: int, seed: int, choices: list[int], decisions: int,
                options: dict[str, Any], found: Callable[[GameRun, BaseException], bool],
                deadline: Any = None) -> None:
    """Let hypothesis shrink the failing game; `found(run, exc)` is called with each game that fails.

    `found` returns whether the failure is the one being shrunk (the same invariant or error): a game
    that fails otherwise does not count as a smaller example. `deadline.check()` may stop it at any time.
    """
    if not can_shrink():
        return
    database = InMemoryExampleDatabase()
    prefix = [counts.index(players)] if len(counts) > 1 else []
    # Stored as a not-yet-shrunk example, so hypothesis replays it and then shrinks it.
    database.save(_KEY + b".secondary", choices_to_bytes([*prefix, seed, *choices]))
    # A candidate longer than the shortest failing game so far cannot be smaller: stop it there.
    limit = options.pop("max_decisions", None)
    shortest = [decisions]

    @settings(database=database, max_examples=1, deadline=None, print_blob=False,
              suppress_health_check=list(HealthCheck), report_multiple_bugs=False, verbosity=Verbosity.quiet,
              phases=[Phase.reuse, Phase.shrink])
    @hypothesis_seed(seed)  # the same shrinking in every process
    @given(st.data())
    def replay(data: Any) -> None:
        if deadline is not None:
            deadline.check()
        count = counts[data.draw(st.integers(0, len(counts) - 1))] if len(counts) > 1 else counts[0]
        cap = shortest[0] + 1 if limit is None else min(limit, shortest[0] + 1)
        run = GameRun(game, count, data.draw(SEEDS), drawing_chooser(data), cutoff=Cutoff(), deadline=deadline,
                      max_decisions=cap, **options)
        try:
            run.play()
        except Exception as exc:
            if found(run, exc):
                shortest[0] = min(shortest[0], len(run.steps))
                raise

    replay._hypothesis_internal_database_key = _KEY  # type: ignore[attr-defined]
    try:
        replay()
    except (HypothesisException, Exception):  # noqa: BLE001 - the failures were handed to `found` as they came
        pass
