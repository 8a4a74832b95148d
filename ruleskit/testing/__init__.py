"""Property testing for rule packs: hypothesis strategies, engine and pack invariants, a runner.

    from hypothesis import given
    from ruleskit.testing import random_games

    @given(random_games("path/to/pack"))
    def test_my_pack(run):
        run.play()

See docs/TESTING.md.
"""

from .invariants import InvariantFailure, check_pack_invariants, check_replay, check_step
from .runner import Failure, Report, check_log, check_pack
from .strategies import GameRun, Playthrough, Step, decision_sequences, random_games

__all__ = [
    "Failure", "GameRun", "InvariantFailure", "Playthrough", "Report", "Step", "check_log", "check_pack",
    "check_pack_invariants", "check_replay", "check_step", "decision_sequences", "random_games",
]
