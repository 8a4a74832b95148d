"""Property testing for rule packs: hypothesis strategies, engine and pack invariants, a runner.

    from hypothesis import given
    from ruleskit.testing import random_games

    @given(random_games("path/to/pack"))
    def test_my_pack(run):
        run.play()

See docs/TESTING.md.
"""

from __future__ import annotations

import importlib
from typing import Any

# Names load on first use: pytest imports this package for its plugin in every
# environment, and the plugin must not pull in hypothesis or the engine there.
_WHERE = {
    "InvariantFailure": "invariants", "check_pack_invariants": "invariants", "check_replay": "invariants",
    "check_step": "invariants", "Failure": "runner", "Report": "runner", "check_log": "runner",
    "check_pack": "runner", "GameRun": "strategies", "Playthrough": "strategies", "Step": "strategies",
    "decision_sequences": "strategies", "random_games": "strategies", "Watcher": "strategies",
    "Coverage": "coverage",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
