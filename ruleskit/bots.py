"""Bots that play any pack: each picks one of a player's legal actions.

Bots see only what their player may know. The random bot looks at nothing but
its own legal actions. The greedy bot looks one decision ahead on
determinized copies (`State.determinized`): hidden zones are redrawn and the
random stream re-seeded from the bot's own seed, so it never learns the deck
order, others' hands or the dice to come.

Every bot draws from its own `random.Random`, seeded from the game seed and
its seat (`derive_seed`), so games reproduce in any process.
"""

from __future__ import annotations

import random
import traceback
from collections.abc import Callable
from typing import Any, Protocol

from .digits import plain_digits
from .errors import PackError, RulesError, did_you_mean
from .game import Game
from .limits import MAX_SEARCH_STEPS
from .mcts import MCTSBot
from .runtime.data import copy_data
from .runtime.engine import Action
from .runtime.state import State

_MASK = (1 << 64) - 1
FOLLOW_UP_DEPTH = 3
# A random bot takes one of its out-of-turn actions once in this many chances, on average.
OUT_OF_TURN_CHANCE = 4
MAX_OUT_OF_TURN_IN_A_ROW = 8
MAX_FOLLOW_UP_OPTIONS = 12
MAX_GREEDY_SAMPLES = 1000
_OWN_MODULES = ("ruleskit.",)
"""The most determinized copies a spec (`greedy:N`) may ask for: every copy tries the first action whatever
the step bound, and `greedy:999999999999` built a list of that many seeds and hung."""


def derive_seed(*parts: int) -> int:
    """A 63-bit seed mixed from integers (splitmix64 finaliser), stable across processes and versions."""
    value = 0x9E3779B97F4A7C15
    for part in parts:
        value = (value ^ (int(part) & _MASK)) & _MASK
        value = (value + 0x9E3779B97F4A7C15) & _MASK
        value = ((value ^ (value >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        value = ((value ^ (value >> 27)) * 0x94D049BB133111EB) & _MASK
        value ^= value >> 31
    return value >> 1


class Bot(Protocol):
    name: str

    def choose(self, state: State, player: int) -> Action:
        """One of `state.legal_actions(player)`."""
        ...


class RandomBot:
    """Uniform over the legal actions."""

    name = "random"

    def __init__(self, game: Game, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, player: int) -> Action:
        actions = state.legal_actions(player)
        if not actions:
            raise PackError(f"Player {player + 1} has no legal action to choose from")
        return actions[self.rng.randrange(len(actions))]


    def intervene(self, state: State, player: int) -> Action | None:
        """Now and then (one time in OUT_OF_TURN_CHANCE) one of the player's out-of-turn actions."""
        actions = state.out_of_turn_actions(player)
        if not actions or self.rng.random() >= 1 / OUT_OF_TURN_CHANCE:
            return None
        return actions[self.rng.randrange(len(actions))]


class GreedyBot:
    """Takes the action whose outcome scores best by the pack's heuristic (or its score).

    Each action is tried on `samples` determinized copies; all actions share the
    same copies' seeds, so they are compared under the same guessed hidden
    information and the same luck. Ties are broken at random. Once the copies
    of one decision have run `MAX_SEARCH_STEPS` steps of pack code, the search
    stops at the next copy: the actions not tried on every copy are left out
    (but the first, when it is the only one tried).
    """

    name = "greedy"

    def __init__(self, game: Game, seed: int, samples: int | str = 1) -> None:
        self.rng = random.Random(seed)
        self.samples = greedy_samples(samples)
        self.measure: Callable[..., Any] = game.heuristic or game.score
        self.spent = 0  # the steps this decision's copies have run (`State.work`)

    def choose(self, state: State, player: int) -> Action:
        actions = state.legal_actions(player)
        if not actions:
            raise PackError(f"Player {player + 1} has no legal action to choose from")
        if len(actions) == 1:
            return actions[0]
        seeds = [self.rng.getrandbits(63) for _ in range(self.samples)]
        best: list[Action] = []
        best_value: float = float("-inf")
        self.spent = 0
        for action in actions:
            if self.spent >= MAX_SEARCH_STEPS:
                break  # the first action is always tried
            value, tried = 0.0, 0
            for seed in seeds:
                if tried and self.spent >= MAX_SEARCH_STEPS:
                    break  # between two copies: this action is not tried on every copy
                value += self.outcome(state, action, player, seed)
                tried += 1
            if tried < len(seeds):
                if not best:
                    best = [action]  # the first action, tried on the copies the bound let it: the only one found
                break
            if value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return best[self.rng.randrange(len(best))]

    def intervene(self, state: State, player: int) -> Action | None:
        """The best out-of-turn action, if it scores better by the heuristic than waiting."""
        actions = state.out_of_turn_actions(player)
        if not actions:
            return None
        seeds = [self.rng.getrandbits(63) for _ in range(self.samples)]
        self.spent = 0
        waiting = sum(self.waiting_value(state, player, s) for s in seeds)
        scored: list[tuple[float, int]] = []
        for i, action in enumerate(actions):
            if self.spent >= MAX_SEARCH_STEPS:
                break
            scored.append((sum(self.outcome(state, action, player, s) for s in seeds), i))
        if not scored:
            return None
        value, index = max(scored, key=lambda pair: (pair[0], -pair[1]))
        return actions[index] if value > waiting else None

    def waiting_value(self, state: State, player: int, seed: int) -> float:
        """The heuristic for `player` if nobody acts out of turn, on a copy determinized from `seed`."""
        copy = state.determinized(player, seed)
        try:
            return self.settled_value(copy, player, 0)
        finally:
            self.spent += copy.work

    def outcome(self, state: State, action: Action, player: int, seed: int) -> float:
        """The heuristic for `player` after `action`, on a copy determinized from `seed`."""
        copy = state.determinized(player, seed)
        try:
            try:
                copy.apply(action.id, player=player)
            except RulesError:
                return float("-inf")
            return self.settled_value(copy, player, FOLLOW_UP_DEPTH)
        finally:
            self.spent += copy.work

    def settled_value(self, state: State, player: int, depth: int) -> float:
        """The heuristic once the player's own follow-up choices in the same action are made at best.

        An action may stop half-way for a choice of the same player (which good to
        discard to make room); its value shows only once that choice is made.
        """
        pending = state.pending
        if depth > 0 and pending is not None and pending["player"] == player:
            best = float("-inf")
            for option in state.legal_actions(player)[:MAX_FOLLOW_UP_OPTIONS]:
                if self.spent + state.work >= MAX_SEARCH_STEPS:
                    break
                copy = state.clone()
                try:
                    try:
                        copy.apply(option.id, player=player)
                    except RulesError:
                        continue
                    best = max(best, self.settled_value(copy, player, depth - 1))
                finally:
                    self.spent += copy.work
            if best > float("-inf"):
                return best
        # No bonus for a game the copy says is won: others' hidden counters are guesses there.
        return float(state.evaluate(self.measure, player))


def greedy_samples(samples: int | str) -> int:
    """The number of copies `greedy:SAMPLES` asks for, refused if it is not a number from 1 to MAX_GREEDY_SAMPLES."""
    if isinstance(samples, str):
        if not plain_digits(samples):
            raise PackError(f"greedy takes a number of samples (greedy:3), not '{samples}'")
        samples = int(samples)
    if samples < 1:
        raise PackError(f"greedy takes a number of samples (greedy:3), not '{samples}'")
    if samples > MAX_GREEDY_SAMPLES:
        raise PackError(f"greedy:{samples} would be searching without end: "
                        f"at most {MAX_GREEDY_SAMPLES:,} samples a decision")
    return samples


def out_of_turn_choice(state: State, seated: list[Any], in_a_row: int) -> Action | None:
    """An `anytime` action a player who is not to decide takes now, asked in seat order; None if nobody does.

    A bot takes part through an optional `intervene(state, player)` method. After
    MAX_OUT_OF_TURN_IN_A_ROW such actions in a row the player to decide goes on, so
    bots never keep a game waiting on actions taken out of turn.
    """
    if in_a_row >= MAX_OUT_OF_TURN_IN_A_ROW:
        return None
    players = sorted({a.player for a in state.out_of_turn_actions()})
    for player in players:
        action = bot_intervention(seated[player], state, player)
        if action is not None:
            return action
    return None


def bot_decision(bot: Any, state: State, player: int) -> Action:
    """`bot.choose(state, player)`, checked: a RulesError naming the bot and the seat if the bot fails, changes
    the decisions of the state it was given, or gives no action of this player's.

    A bot is code of its author's: an exception it raises is a failed game (its file and line in the message),
    not a traceback that stops every other game of a run.
    """
    action = _checked_call(bot, "choose", state, player)
    if action is None:
        raise PackError(f"{_seat(bot, player)} gave NoneType, not one of state.legal_actions({player})")
    return _own_action(bot, player, action, lambda: state.legal_actions(player))


def bot_intervention(bot: Any, state: State, player: int) -> Action | None:
    """`bot.intervene(state, player)`, checked as `bot_decision` checks a choice; None if the bot has no such
    method or does not act."""
    if getattr(bot, "intervene", None) is None:
        return None
    action = _checked_call(bot, "intervene", state, player)
    if action is None:
        return None
    return _own_action(bot, player, action, lambda: state.out_of_turn_actions(player))


def _seat(bot: Any, player: int) -> str:
    return f"bot '{getattr(bot, 'name', type(bot).__name__)}' (Player {player + 1})"


def _checked_call(bot: Any, method: str, state: State, player: int) -> Any:
    decided = len(state.history)
    # A bot from outside ruleskit may write into the game's data (`state.data`, or `state.raw`, which clones
    # share) without deciding: its data is compared whole after it chose. The built-in bots only read.
    before = None if type(bot).__module__.startswith(_OWN_MODULES) else (copy_data(state.raw), copy_data(state.pending))
    try:
        action = getattr(bot, method)(state, player)
    except RulesError:
        raise
    except Exception as exc:  # noqa: BLE001 - any failure of the bot's own code is reported as the game's error
        raise PackError(f"{_seat(bot, player)} failed{_where(exc)}: {type(exc).__name__}: {exc}") from None
    if len(state.history) != decided:
        raise PackError(f"{_seat(bot, player)} took decisions on the state it was given: "
                        "search on state.clone() or state.determinized(player, seed)")
    if before is not None and (state.raw, state.pending) != before:
        raise PackError(f"{_seat(bot, player)} changed the game's data without deciding: change a copy "
                        "(state.clone().data), never state.data or state.raw of the state it was given")
    return action


def _where(exc: BaseException) -> str:
    """' at FILE:LINE' of the innermost frame an exception passed through, or nothing."""
    frames = traceback.extract_tb(exc.__traceback__)
    return f" at {frames[-1].filename}:{frames[-1].lineno}" if frames else ""


def _own_action(bot: Any, player: int, action: Any, offered: Callable[[], list[Action]]) -> Action:
    """The action a bot gave, if it is one of the player's own: an Action of that seat, or an action id (looked
    up in `offered()`, listed only then: a bot's every decision passes here)."""
    if isinstance(action, Action):
        if action.player != player:
            raise PackError(f"{_seat(bot, player)} gave '{action.id}', an action of Player {action.player + 1}'s")
        return action
    if isinstance(action, str):  # an action id, as `State.apply` takes
        for legal in offered():
            if legal.id == action:
                return legal
        raise PackError(f"{_seat(bot, player)} gave '{action}', not one of its legal actions now")
    raise PackError(f"{_seat(bot, player)} gave {type(action).__name__}, not one of state.legal_actions({player})")


BotFactory = Callable[..., Bot]
"""Builds a bot: `factory(game, seed)`, or `factory(game, seed, option)` when the spec has `:option`."""

BOTS: dict[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot, "mcts": MCTSBot}
ENTRY_POINT_GROUP = "ruleskit.bots"


def installed_bots() -> dict[str, BotFactory]:
    """The built-in bots and those installed packages declare in the `ruleskit.bots` entry-point group."""
    from importlib.metadata import entry_points

    found: dict[str, BotFactory] = dict(BOTS)
    for point in entry_points(group=ENTRY_POINT_GROUP):
        if point.name not in found:
            found[point.name] = _lazy_entry_point(point)
    return found


def _lazy_entry_point(point: Any) -> BotFactory:
    def build(*args: Any) -> Bot:
        try:
            factory = point.load()
        except Exception as exc:  # a broken plug-in must not take the whole command down unexplained
            raise PackError(f"bot '{point.name}' ({point.value}) failed to load: {exc}") from None
        return factory(*args)
    return build


def bot_factory(spec: str) -> tuple[BotFactory, str | None]:
    """The factory for a bot spec and its option: `name`, `name:option`, or `package.module:Class[:option]`."""
    name, colon, option = spec.strip().partition(":")
    known = installed_bots()
    if name in known:
        if colon and not option.strip():  # `greedy:` read as plain `greedy`: say so rather than guess
            raise PackError(f"bot '{spec.strip()}' names no option after ':': give {name}:OPTION, or {name} alone")
        if known[name] is MCTSBot and option:
            from .mcts import check_option

            check_option(option)
        if known[name] is GreedyBot and option:
            greedy_samples(option)
        return known[name], option or None
    if option:
        class_name, _, class_option = option.partition(":")
        return _import_bot(name, class_name), class_option or None
    raise PackError(f"unknown bot '{name}'; bots: {', '.join(known)}, or package.module:Class",
                    hint=did_you_mean(name, known))


def _import_bot(module_name: str, class_name: str) -> BotFactory:
    from importlib import import_module

    if not module_name or module_name.startswith("."):
        raise PackError(f"bot '{module_name}:{class_name}' names no module: give package.module:Class")
    try:
        module = import_module(module_name)
    except ImportError as exc:
        raise PackError(f"cannot import bot module '{module_name}': {exc}", hint=_import_hint(module_name, exc)) from None
    except Exception as exc:  # noqa: BLE001 - a module that fails as it is imported is the user's to fix
        raise PackError(f"bot module '{module_name}' failed to import: {type(exc).__name__}: {exc}") from None
    factory = getattr(module, class_name, None)
    if not callable(factory):
        raise PackError(f"module '{module_name}' has no bot class '{class_name}'")
    return factory


def _import_hint(module_name: str, exc: ImportError) -> str | None:
    """What to do when the bot's own module is not found (not a module it imports in turn)."""
    from pathlib import Path

    top = module_name.split(".")[0]
    if not isinstance(exc, ModuleNotFoundError) or exc.name != top:
        return None
    # The `ruleskit` command does not search the working folder for modules, as `python` does.
    if Path(f"{top}.py").is_file() or Path(top, "__init__.py").is_file():
        return ("it is in the working folder, where the ruleskit command does not look for modules: "
                "run it as PYTHONPATH=. ruleskit ...")
    return "the module must be importable: put its folder on PYTHONPATH, or install it"


def check_bot_names(names: list[str]) -> None:
    for name in names:
        bot_factory(name)


def check_seat_names(seats: list[str], human: str) -> None:
    """Each seat is `human` or a bot: a name that is neither is answered with both kinds of seat."""
    known = installed_bots()
    for seat in seats:
        if seat == human:
            continue
        name, _, option = seat.strip().partition(":")
        if not option and name not in known:
            raise PackError(f"unknown seat '{name}': {human}, or a bot ({', '.join(known)}, or package.module:Class)",
                            hint=did_you_mean(name, [human, *known]))
        bot_factory(seat)


def make_bot(spec: str, game: Game, seed: int) -> Bot:
    """The bot a spec names, seeded; see docs/BOTS.md for the protocol a bot follows."""
    factory, option = bot_factory(spec)
    try:
        bot = factory(game, seed) if option is None else factory(game, seed, option)
    except RulesError:
        raise
    except TypeError as exc:
        raise PackError(f"bot '{spec}' could not be made: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - the bot's own code failed: say where, with no traceback
        raise PackError(f"bot '{spec}' could not be made{_where(exc)}: {type(exc).__name__}: {exc}") from None
    if not callable(getattr(bot, "choose", None)):
        raise PackError(f"bot '{spec}' has no choose(state, player) method")
    return bot


def seat_bots(names: list[str], players: int) -> list[str]:
    """One bot name per seat: a single name fills every seat, otherwise one name per seat."""
    names = [n.strip() for n in names if n.strip()]
    if not names:
        raise PackError("no bots named")
    check_bot_names(names)
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise PackError(f"{len(names)} bots named for {players} players: name one bot, or one per seat")
    return names
