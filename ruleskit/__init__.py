"""ruleskit: a rules-as-data engine for turn-based board games.

    import ruleskit
    game = ruleskit.load("path/to/pack")     # a folder, or a built-in pack's name
    state = game.new_game(players=3, seed=7)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    print(state.result)
"""

from .errors import (
    BudgetExceeded,
    IllegalAction,
    LanguageError,
    PackError,
    ProgramError,
    ReplayMismatch,
    RulesError,
    RuleViolation,
)
from .game import Game, load
from .runtime.engine import Action
from .runtime.state import State

__all__ = [
    "Action", "BudgetExceeded", "Game", "IllegalAction", "LanguageError", "PackError", "ProgramError",
    "ReplayMismatch", "RuleViolation", "RulesError", "State", "load", "scenario",
]
__version__ = "0.1.0"


def scenario(path: str, pack: str | None = None) -> State:
    """Load a scenario file: a pack's setup with parts of the state set by hand."""
    from .scenarios import load_scenario

    return load_scenario(path, pack)
