"""The context a compiled program runs in, and the control signals it raises.

Compiled closures take a `Ctx`: the mutable game data, the acting player,
local variables, the decisions already made for this job (re-run on each
answer), the chance outcomes drawn so far, and the step budget.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ..errors import BudgetExceeded
from .data import copy_data, restore_into

if TYPE_CHECKING:
    from ..model import Model
    from .program import Program

STEP_BUDGET = 200_000
MAX_DEPTH = 48
# The most `say` messages one job may add: each is a step, and a loop of them within the budget would
# otherwise keep hundreds of megabytes of text.
MAX_MESSAGES = 10_000
# The most characters they may hold together: ten thousand names of thousands of characters each would
# otherwise keep ninety megabytes in the history at every decision.
MAX_SAID_CHARACTERS = 200_000
# And a whole game's, which its history keeps: 200,000 a decision over the 20,000 decisions `simulate` lets a
# game run kept 3.9 GB.
MAX_GAME_SAID = 10_000_000
# The local that a generated rule, procedure or hook sets to where it is written once it has begun:
# error messages name the running definitions by finding it in the Python frames (see `running`).
FRAME_LOCAL = "FRAME"


_new_object = object.__new__
# A context for reading owns nothing and must change nothing: a table that refuses a write.
_OWNS_NOTHING: Mapping[str, dict[Any, Any]] = MappingProxyType({})


def nothing(ctx: Ctx) -> None:
    """An empty block of statements: the engine knows by this function that running it changes nothing."""


class Suspend(Exception):
    """A `choose` needs an answer that has not been given yet."""

    def __init__(self, player: int, prompt: str, options: list[tuple[str, str, Any]]) -> None:
        super().__init__(prompt)
        self.player = player
        self.prompt = prompt
        self.options = options  # (id, label, value)
        # The action's effect, stopped at this choice, when it can go on from there once answered
        # (a generator: see `engine.resume_job`); None when only running the job again gets there.
        self.resume: Any = None


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
                 "messages", "said", "where", "reseed", "found", "frames", "owned", "olds", "budget_from")

    def __init__(self, program: Program, data: dict[str, Any], me: int, answers: list[str] | None = None,
                 budget: int = STEP_BUDGET) -> None:
        self.program = program
        self.model: Model = program.model
        self.data = data
        self.me = me
        self.env: dict[str, Any] = {}
        self.answers: Sequence[str] = answers if answers is not None else ()  # only read: no list to make
        self.pos = 0
        self.steps = 0  # every step this context has run (`State.work` adds them up), against `budget`
        self.budget = budget
        self.budget_from = 0  # the steps at which the budget began: its size is `budget - budget_from`
        self.depth = 0
        self.frames: list[str] = []  # the rules, procedures and hooks being run, outermost first
        self.chance: list[dict[str, Any]] = []
        self.messages: list[str] = []
        self.said = 0  # the characters of `messages`
        self.where = ""
        # The first legal action the flow found when it stopped, and the listing that goes on from it (None
        # when the first is all there is).
        self.found: tuple[Any, Any] | None = None
        # For a determinized copy: redraw hidden information once answer number `after` is used.
        self.reseed: dict[str, int] | None = None
        # Copy on write: the parts of `data` this job copied and may change in place (`data[part]` itself),
        # each with the containers in it that it copied too, by key (`data[part][key]`). Everything else in
        # `data` is shared with the state the job started from (and its clones) and is never changed. Only
        # `own` and `own_top` put a container into a part the job owns, so the table always names what is
        # there: a part replaced whole (a rollback, a redraw) empties the table first.
        self.owned: dict[str, dict[Any, Any]] = {}
        # While properties are checked (`ruleskit test`): the data as each running action, hook or procedure
        # that reads `old(...)` began, innermost last. None in normal play, where `ensure` does nothing.
        self.olds: list[dict[str, Any]] | None = None

    @classmethod
    def for_reading(cls, program: Program, data: dict[str, Any], me: int) -> Ctx:
        """A context for pack code that only reads: an action's `when`, parameter lists and `require`s are
        expressions, which can draw nothing, say nothing and change nothing (`let` alone takes a draw). It
        has no lists for chance, messages or copies: made for every listing, it costs half of a job's."""
        ctx = _new_object(cls)
        ctx.program = program
        ctx.model = program.model
        ctx.data = data
        ctx.me = me
        ctx.env = {}
        ctx.answers = ()
        ctx.pos = 0
        ctx.steps = 0
        ctx.budget = STEP_BUDGET
        ctx.budget_from = 0
        ctx.depth = 0
        ctx.frames = ()  # type: ignore[assignment]  # `enter` makes a list if the reference backend needs one
        ctx.chance = ()  # type: ignore[assignment]
        ctx.messages = ()  # type: ignore[assignment]
        ctx.said = 0
        ctx.where = ""
        ctx.found = None
        ctx.reseed = None
        ctx.owned = _OWNS_NOTHING  # type: ignore[assignment]
        ctx.olds = None
        return ctx

    def read_on(self, me: int) -> None:
        """Make this finished job's context one for reading, as `for_reading` makes one, for `me` (what the job
        left in its lists stays as it was: reading code changes none of them)."""
        self.me = me
        self.answers = ()
        self.pos = self.depth = 0
        self.budget = self.steps + STEP_BUDGET  # a budget of its own; the steps so far stay work done
        self.budget_from = self.steps
        self.reseed = self.olds = None

    def apply_reseed(self) -> None:
        from .determinize import determinize

        if self.reseed is not None:
            spec, self.reseed = self.reseed, None
            own_everything(self.data)
            self.owned.clear()
            # A search's copy redraws here, in its job: the redraw's work is the job's steps (`State.work`).
            self.steps += determinize(self.model, self.data, spec["viewer"], spec["seed"], self.program)

    # ------------------------------------------------------------- copy on write

    def own(self, part: str, key: Any) -> Any:
        """The container `data[part][key]` (a player's vars, an item's vars, a zone), safe to change in place."""
        owned = self.owned
        table = owned.get(part)
        if table is not None:
            inner = table.get(key)
            if inner is not None:  # the usual case once a job has changed this container
                return inner
            outer = self.data[part]
        else:  # the first change a job makes to this part pays for its copy
            table = owned[part] = {}  # first: a context for reading refuses it and changes nothing
            data = self.data
            outer = data[part] = data[part].copy()
        if type(key) is int and key < 0 and key >= -len(outer):
            # A place in a list counted from its end names the container its place from the front names: the
            # table knows it by that one, as it would know it by its id.
            return self.own(part, key + len(outer))
        inner = outer[key] = outer[key].copy()
        table[key] = inner
        return inner

    def own_top(self, part: str) -> Any:
        """The container `data[part]` (the blocked edges, say), safe to change in place."""
        data = self.data
        if part not in self.owned:
            self.owned[part] = {}
            data[part] = data[part].copy()
        return data[part]

    def checkpoint(self) -> dict[str, Any]:
        """The data as it is now, to roll back to: what this job owns becomes shared again."""
        saved = fork(self.data)
        self.owned.clear()
        return saved

    def rollback(self, saved: dict[str, Any]) -> None:
        """Return the data to a checkpoint, keeping the identity of the flow table that the engine holds."""
        data = self.data
        flow = data["flow"]
        restore_into(flow, saved["flow"])
        data.clear()
        data.update(saved)
        data["flow"] = flow
        self.owned.clear()

    def say(self, text: str, where: str) -> None:
        """Add a message to the job's (`say`), up to `MAX_MESSAGES` of them and `MAX_SAID_CHARACTERS` in all."""
        said = self.said + len(text)
        if len(self.messages) >= MAX_MESSAGES or said > MAX_SAID_CHARACTERS:
            from ..errors import ProgramError

            too_many = f"more than {MAX_MESSAGES} messages" if len(self.messages) >= MAX_MESSAGES \
                else f"more than {MAX_SAID_CHARACTERS} characters"
            raise ProgramError(f"{too_many} said in one decision, in {where}")
        self.said = said
        self.messages.append(text)

    def tick(self, where: str) -> None:
        self.steps += 1
        if self.steps > self.budget:
            # The budget's size, not where it ends: a listing on a finished job's context starts past its steps.
            raise BudgetExceeded(f"step budget of {self.budget - self.budget_from} exceeded in {where}"
                                 f"{self._callers()}")

    def tick_many(self, steps: int, where: str) -> None:
        """Count `steps` steps at once (work on that many pieces or elements), with `tick`'s error if the
        budget runs out among them."""
        if steps > 0:
            self.steps += steps
            if self.steps > self.budget:  # `tick`'s error, from the last of them
                self.steps -= 1
                self.tick(where)

    def enter(self, where: str) -> None:
        self.depth += 1
        frames = self.frames
        if type(frames) is tuple:  # a context for reading starts with none
            frames = self.frames = []
        frames.append(where)
        if self.depth > MAX_DEPTH:
            self.too_deep(where)

    def too_deep(self, where: str) -> None:
        """Raise the nesting-limit error (generated code enters definitions inline and calls this)."""
        raise BudgetExceeded(f"nesting limit of {MAX_DEPTH} calls exceeded in {where}{self._callers()}")

    def leave(self) -> None:
        self.depth -= 1
        if self.frames:
            self.frames.pop()

    def _callers(self) -> str:
        """Where the innermost definition was called from, so a budget error names the hook behind it."""
        callers = (self.frames or running(self))[:-1]
        if not callers:
            return ""
        return ", called from " + ", called from ".join(reversed(callers[-4:]))


def running(ctx: Ctx) -> list[str]:
    """The generated definitions running on `ctx` that have begun, outermost first.

    Generated code keeps no list of frames (pushing and popping one on every call cost more than
    the calls' work): a budget or nesting error, raised once, finds them in the Python stack.
    """
    found: list[str] = []
    frame = sys._getframe(1)
    while frame is not None:
        if FRAME_LOCAL in frame.f_code.co_varnames:
            names = frame.f_locals
            if names.get("ctx") is ctx and FRAME_LOCAL in names:
                found.append(names[FRAME_LOCAL])
        frame = frame.f_back  # type: ignore[assignment]
    found.reverse()
    return found


def fork(base: dict[str, Any]) -> dict[str, Any]:
    """New game data sharing `base`'s containers; the flow and game vars, written by every job, are copied."""
    data = base.copy()
    flow = base["flow"]
    # Outside a simultaneous stage the engine's flow holds plain values but for the usage counts and the
    # seats (a saved flow is checked to have exactly the engine's keys, so its size says it has no others).
    # The seats are shared: the engine only ever replaces that list, never changes it in place. Written here
    # rather than called: every job forks.
    if len(flow) == _FLOW_SIZE and flow["simul"] is None and len(usage := flow["usage"]) == 3:
        copied = data["flow"] = flow.copy()
        copied["usage"] = {"turn": usage["turn"].copy(), "visit": usage["visit"].copy(),
                           "game": usage["game"].copy()}
    else:
        data["flow"] = copy_flow(flow)
    data["v"] = base["v"].copy()
    return data


def copy_flow(flow: dict[str, Any]) -> dict[str, Any]:
    """A copy of the flow table for a job to change; its usage counts are flat tables of numbers, copied whole."""
    copied = flow.copy()
    for key, value in flow.items():
        if key == "usage":
            copied[key] = {scope: counts.copy() for scope, counts in value.items()}
        elif type(value) is dict or type(value) is list:
            copied[key] = copy_data(value)
    return copied


# The number of keys of a flow table as the engine makes it ("phase", "stage", "active", "order", "pos",
# "turn", "round", "end_turn", "entered", "simul", "idle" and "usage"); all but `usage` and `order` hold
# plain values (`simul` is None outside a simultaneous stage).
_FLOW_SIZE = 12


def own_everything(data: dict[str, Any]) -> None:
    """Replace every shared container of `data` by a private deep copy (before changing it wholesale)."""
    for part in ("pv", "ev", "z", "blocked", "script", "result"):
        if part in data:
            data[part] = copy_data(data[part])
