"""The context a compiled program runs in, and the control signals it raises.

Compiled closures take a `Ctx`: the mutable game data, the acting player,
local variables, the decisions already made for this job (re-run on each
answer), the chance outcomes drawn so far, and the step budget.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import BudgetExceeded

if TYPE_CHECKING:
    from ..lang.compiler import Program
    from ..model import Model

STEP_BUDGET = 200_000
MAX_DEPTH = 48


class Suspend(Exception):
    """A `choose` needs an answer that has not been given yet."""

    def __init__(self, player: int, prompt: str, options: list[tuple[str, str, Any]]) -> None:
        super().__init__(prompt)
        self.player = player
        self.prompt = prompt
        self.options = options  # (id, label, value)


class GameOver(Exception):
    """`finish` ended the game at once."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Return(Exception):
    """`return` left the current procedure or hook."""


class Ctx:
    """Everything a running program can touch."""

    __slots__ = ("model", "program", "data", "me", "env", "answers", "pos", "steps", "budget", "depth", "chance",
                 "messages", "where", "reseed", "found", "frames")

    def __init__(self, program: Program, data: dict[str, Any], me: int, answers: list[str] | None = None,
                 budget: int = STEP_BUDGET) -> None:
        self.program = program
        self.model: Model = program.model
        self.data = data
        self.me = me
        self.env: dict[str, Any] = {}
        self.answers = answers or []
        self.pos = 0
        self.steps = 0
        self.budget = budget
        self.depth = 0
        self.frames: list[str] = []  # the rules, procedures and hooks being run, outermost first
        self.chance: list[dict[str, Any]] = []
        self.messages: list[str] = []
        self.where = ""
        self.found: list[Any] | None = None  # the legal actions the flow found when it stopped
        # For a determinized copy: redraw hidden information once answer number `after` is used.
        self.reseed: dict[str, int] | None = None

    def apply_reseed(self) -> None:
        from .determinize import determinize

        if self.reseed is not None:
            spec, self.reseed = self.reseed, None
            determinize(self.model, self.data, spec["viewer"], spec["seed"])

    def tick(self, where: str) -> None:
        self.steps += 1
        if self.steps > self.budget:
            raise BudgetExceeded(f"step budget of {self.budget} exceeded in {where}{self._callers()}")

    def enter(self, where: str) -> None:
        self.depth += 1
        self.frames.append(where)
        if self.depth > MAX_DEPTH:
            raise BudgetExceeded(f"nesting limit of {MAX_DEPTH} calls exceeded in {where}{self._callers()}")

    def leave(self) -> None:
        self.depth -= 1
        if self.frames:
            self.frames.pop()

    def _callers(self) -> str:
        """Where the innermost definition was called from, so a budget error names the hook behind it."""
        callers = self.frames[:-1]
        if not callers:
            return ""
        return ", called from " + ", called from ".join(reversed(callers[-4:]))
