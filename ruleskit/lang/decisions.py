"""Compiling chance (`roll`, `random`, `shuffled`, `sample`) and decisions (`choose`).

Chance draws from the game's one random stream (`runtime/rng.py`) and records
each outcome. A `choose` takes its answer from the job's answers so far, or
suspends the job with the options; the job re-runs from its start when the
answer comes (see `runtime/engine.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from math import comb
from typing import TYPE_CHECKING, Any

from ..errors import ProgramError, did_you_mean
from ..runtime import rng
from ..runtime.context import Ctx, Suspend
from .expressions import number_value, unquote
from .scope import ANY, Fn, Scope, element_type
from .statements import StatementCompiler
from .support import take_answer
from .values import as_list, label_of, option_id, options_collide, same_value

if TYPE_CHECKING:  # lark is imported when something is parsed (lang/parser.py)
    from lark import Tree

MAX_SUBSET = 12
MAX_ORDER = 6
MAX_NUMBER_OPTIONS = 1000
# `choose P subset K of LIST` lists every combination as one decision up to this many; past it the
# elements are chosen one at a time (still one statement), so any list size stays within the legal-action cap.
MAX_COMBINATIONS = 1000
DONE = "done"


class DecisionCompiler(StatementCompiler):
    """Compiles the chance and choice forms a `let` may take."""

    # ------------------------------------------------------------- chance and choices

    def c_roll(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        die = str(node.children[0])
        if die not in self.model.dice:
            raise self.error(node, f"unknown die '{die}'", did_you_mean(die, self.model.dice))
        faces = list(self.model.dice[die].faces)
        # A die not seen by all records who rolled it, which decides who is told its value; the outcomes
        # of public dice stay as logs have always held them.
        secret = self.model.dice[die].visible != "all"

        def run(ctx: Ctx) -> int:
            if ctx.data.get("script", {}).get(die):
                # Scenarios may fix the next results of a die; the stream is left untouched.
                value = ctx.own("script", die).pop(0)
                outcome: dict[str, Any] = {"roll": die, "value": value, "scripted": True}
            else:
                value = faces[rng.below(ctx.data, len(faces))]
                outcome = {"roll": die, "value": value}
            if secret:
                # Before the first stage is entered (the setup and `game_start`) no player is rolling: `me`
                # is only the first seat there, and a setup rolling for every player would tell it them all.
                outcome["player"] = ctx.me if ctx.data["flow"]["stage"] else None
            ctx.chance.append(outcome)
            return value

        return run, "int"

    def c_random_pick(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        source, source_type = self.compile_expr(node.children[0], scope)
        where = self.where(node)
        model = self.model

        def run(ctx: Ctx) -> Any:
            items = as_list(model, ctx.data, source(ctx), where)
            if not items:
                raise ProgramError(f"random pick from an empty list in {where}")
            value = items[rng.below(ctx.data, len(items))]
            ctx.chance.append({"random": option_id(value)})
            return value

        return run, element_type(source_type)

    def c_shuffled(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        source, source_type = self.compile_expr(node.children[0], scope)
        where = self.where(node)
        model = self.model

        def run(ctx: Ctx) -> list[Any]:
            items = as_list(model, ctx.data, source(ctx), where)
            ctx.tick_many(len(items), where)  # a list given to a builtin costs its length, as `builtins.charge` says
            items = rng.shuffled(ctx.data, items)
            ctx.chance.append({"shuffled": [option_id(v) for v in items]})
            return items

        return run, source_type if source_type.startswith("list:") else "list:any"

    def c_sample(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        source, source_type = self.compile_expr(node.children[0], scope)
        count, _ = self.compile_expr(node.children[1], scope)
        where = self.where(node)
        model = self.model

        def run(ctx: Ctx) -> list[Any]:
            items = as_list(model, ctx.data, source(ctx), where)
            n = number_value(count(ctx), where)
            if not 0 <= n <= len(items):
                raise ProgramError(f"cannot sample {n} from {len(items)} in {where}")
            ctx.tick_many(len(items), where)  # the whole list is shuffled to pick from it
            picked = rng.shuffled(ctx.data, items)[:n]
            ctx.chance.append({"sample": [option_id(v) for v in picked]})
            return picked

        return run, source_type if source_type.startswith("list:") else "list:any"

    def _prompt(self, node: Tree | None, default: str) -> str:
        if node is None:
            return default
        return unquote(str(node.children[0]))

    def _chooser(self, node: Tree, scope: Scope) -> Fn:
        fn, type_name = self.compile_expr(node, scope)
        if type_name not in (ANY, "player", "int"):
            raise self.error(node, f"the one who chooses must be a player, not a value of type {type_name}")
        return fn

    def _decide(self, who: Fn, prompt: str, options: Callable[[Ctx], list[tuple[str, str, Any]]], where: str) -> Fn:
        def run(ctx: Ctx) -> Any:
            player = who(ctx)
            if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < ctx.data["n"]:
                raise ProgramError(f"{player!r} is not a player who can choose in {where}")
            listed = options(ctx)
            answer = _answer(ctx, player, prompt, listed, where)
            return next(value for option_key, _, value in listed if option_key == answer)

        return run

    def _unique(self, values: list[Any], player_labels: bool, where: str) -> list[tuple[str, str, Any]]:
        return unique_options(self.model, values, player_labels, where)

    def c_choose_one(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        who = self._chooser(node.children[0], scope)
        source, source_type = self.compile_expr(node.children[1], scope)
        prompt = self._prompt(node.children[2], "Choose one")
        where = self.where(node)
        model = self.model
        players = source_type == "list:player"

        def options(ctx: Ctx) -> list[tuple[str, str, Any]]:
            return self._unique(as_list(model, ctx.data, source(ctx), where), players, where)

        return self._decide(who, prompt, options, where), element_type(source_type)

    def c_choose_number(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        who = self._chooser(node.children[0], scope)
        low, _ = self.compile_expr(node.children[1], scope)
        high, _ = self.compile_expr(node.children[2], scope)
        prompt = self._prompt(node.children[3], "Choose a number")
        where = self.where(node)

        def options(ctx: Ctx) -> list[tuple[str, str, Any]]:
            a, b = number_value(low(ctx), where), number_value(high(ctx), where)
            if b - a + 1 > MAX_NUMBER_OPTIONS:
                raise ProgramError(f"a number choice with more than {MAX_NUMBER_OPTIONS} options in {where}")
            return [(str(n), str(n), n) for n in range(a, b + 1)]

        return self._decide(who, prompt, options, where), "int"

    def c_choose_subset(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        return self._choose_arrangement(node, scope, "Choose any", "a subset", MAX_SUBSET, _subsets)

    def c_choose_order(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        return self._choose_arrangement(node, scope, "Choose an order", "an order", MAX_ORDER, _permutations)

    def _choose_arrangement(self, node: Tree, scope: Scope, default_prompt: str, what: str, limit: int,
                            arrangements: Callable[[list[Any]], list[list[Any]]]) -> tuple[Fn, str]:
        """A choice among arrangements (subsets, orders) of a list, which grow fast: hence the limit."""
        who = self._chooser(node.children[0], scope)
        source, source_type = self.compile_expr(node.children[1], scope)
        prompt = self._prompt(node.children[2], default_prompt)
        where = self.where(node)
        model = self.model

        def options(ctx: Ctx) -> list[tuple[str, str, Any]]:
            items = as_list(model, ctx.data, source(ctx), where)
            if len(items) > limit:
                raise ProgramError(f"{what} choice over more than {limit} items in {where}")
            return self._unique(arrangements(items), source_type == "list:player", where)

        return self._decide(who, prompt, options, where), source_type


    def c_choose_count(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        """`choose P subset K of LIST` (or `K1..K2`): exactly K of the list's elements, kept in the list's order."""
        who = self._chooser(node.children[0], scope)
        low, _ = self.compile_expr(node.children[1], scope)
        high = self.compile_expr(node.children[2], scope)[0] if node.children[2] is not None else low
        source, source_type = self.compile_expr(node.children[3], scope)
        prompt = self._prompt(node.children[4], "Choose")
        where = self.where(node)
        model = self.model
        players = source_type == "list:player"

        def run(ctx: Ctx) -> list[Any]:
            player = who(ctx)
            if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < ctx.data["n"]:
                raise ProgramError(f"{player!r} is not a player who can choose in {where}")
            items = as_list(model, ctx.data, source(ctx), where)
            a, b = number_value(low(ctx), where), number_value(high(ctx), where)
            b = min(b, len(items))  # "up to 3" of 2 elements is up to 2
            if not 0 <= a <= b:
                raise ProgramError(f"cannot choose {a}..{number_value(high(ctx), where)} of {len(items)} "
                                   f"elements in {where}")
            if sum(comb(len(items), k) for k in range(a, b + 1)) <= MAX_COMBINATIONS:
                listed = []
                for k in range(a, b + 1):
                    for combination in _combinations(items, k):
                        ctx.tick(where)  # each combination listed is a step of the budget
                        listed.append(combination)
                options = self._unique(listed, players, where)
                chosen = _answer(ctx, player, prompt, options, where)
                return next(list(value) for key, _, value in options if key == chosen)
            return self._one_at_a_time(ctx, player, prompt, items, a, b, players, where)

        return run, source_type if source_type.startswith("list:") else "list:any"

    def _one_at_a_time(self, ctx: Ctx, player: int, prompt: str, items: list[Any], low: int, high: int,
                       players: bool, where: str) -> list[Any]:
        """Too many combinations to list: one element per answer, then `done` once `low` are chosen."""
        remaining = list(enumerate(items))
        taken: list[tuple[int, Any]] = []
        while len(taken) < high:
            first: dict[str, tuple[int, Any]] = {}
            for index, value in remaining:
                first.setdefault(option_id(value), (index, value))
            if DONE in first:
                raise ProgramError(f"an element's id is '{DONE}', which a choice of several elements uses, in {where}")
            options = [(key, label_of(self.model, value, players), value) for key, (_, value) in first.items()]
            if len(taken) >= low:
                options.append((DONE, "Done", None))
            chosen = _answer(ctx, player, f"{prompt} ({len(taken)} chosen of {low}..{high})", options, where)
            if chosen == DONE:
                break
            taken.append(first[chosen])
            remaining.remove(first[chosen])
        return [value for _, value in sorted(taken, key=lambda pair: pair[0])]


def unique_options(model: Any, values: list[Any], player_labels: bool, where: str) -> list[tuple[str, str, Any]]:
    """The options of a choice: each distinct value once, with its id and label. Two values that differ
    but share an id (1 and "1", [] and "-") could not both be answered: an error, not an option lost."""
    seen: dict[str, Any] = {}
    result = []
    for value in values:
        try:
            key = option_id(value)
        except ProgramError as exc:  # a list too big to name an option
            raise ProgramError(f"{exc.message} in {where}") from None
        if key not in seen:
            seen[key] = value
            result.append((key, label_of(model, value, player_labels), value))
        elif not same_value(seen[key], value):
            raise options_collide(model, "a choice", seen[key], value, key, where)
    return result


def _answer(ctx: Ctx, player: int, prompt: str, options: list[tuple[str, str, Any]], where: str) -> str:
    """The id of the answer given to this choice, or suspend the job until it is given."""
    if not options:
        raise ProgramError(f"a choice with no options in {where}")
    if ctx.pos < len(ctx.answers):
        return take_answer(ctx, prompt, options)
    raise Suspend(player, prompt, options)


def _combinations(items: list[Any], size: int) -> list[list[Any]]:
    if size == 0:
        return [[]]
    result = []
    for i in range(len(items) - size + 1):
        for rest in _combinations(items[i + 1:], size - 1):
            result.append([items[i]] + rest)
    return result


def _permutations(items: list[Any]) -> list[list[Any]]:
    if len(items) <= 1:
        return [list(items)]
    result = []
    for i, item in enumerate(items):
        for rest in _permutations(items[:i] + items[i + 1:]):
            result.append([item] + rest)
    return result


def _subsets(items: list[Any]) -> list[list[Any]]:
    """Every sub-list, smallest first, keeping the list's order."""
    result: list[list[Any]] = []
    for size in range(len(items) + 1):
        result.extend(_combinations(items, size))
    return result
