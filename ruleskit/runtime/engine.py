"""Running jobs: setup, actions and simultaneous picks, and the flow between them.

A *job* is everything that happens from one decision to the next: the chosen
action's costs and effects, then the flow (ending the turn, the next player,
round and phase changes, hooks) until someone must decide again. A job runs on
a copy of the game data. If a `choose` inside it needs an answer that has not
been given, the job stops with `Suspend`; when the answer comes, the job runs
again from its start with the answers so far. Because the random stream lives
in the data, the re-run draws the same chance outcomes. So a pending decision
is plain data: the job, the answers, and the data the job started from.

Running again from the start is the meaning of an answer, and what a saved
state does. Within one process an action's effect in generated code can also
go on from where it stopped (`resume_job`): the effect is a generator, which
yields at the choice and is resumed with the answer, with the same steps,
chance and data as running it again would give.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator, Iterable, Iterator
from itertools import chain
from typing import TYPE_CHECKING, Any, NoReturn

from ..errors import ProgramError, RuleViolation
from . import rng
from .checks import run_checked_effect
from .context import Ctx, GameOver, Suspend, nothing
from .data import copy_data
from .values import as_list, label_of, option_id, options_collide, same_value
from .zones import initial_content

if TYPE_CHECKING:
    from ..game import CompiledAction, Game
    from ..model import Model

MAX_IDLE_TURNS_PER_PLAYER = 2
# Stages entered one after another in a turn with no decision between them: far more than any flow walks
# through, and reached long before the step budget when an `on_enter` goes back to its own stage.
MAX_ENTRIES_PER_TURN = 1000
# More legal actions than this at one decision is a mistake in the pack (three parameters over long ranges,
# say), and listing them would exhaust memory: it is reported instead.
MAX_LEGAL_ACTIONS = 10_000
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


class Action:
    """A decision a player can take now: a stable id, a label and a structured payload.

    Actions are immutable, and `payload` gives a copy: what the engine applies
    is found again by id among the legal actions, never read from an object a
    caller could change. The label is written only when someone reads it.
    """

    __slots__ = ("id", "player", "_label", "raw_payload")

    id: str
    player: int
    _label: str | Callable[[], str]
    # The payload, or what makes it when first asked for (`internal_payload`): for the engine, which reads
    # a dict here at once and never changes it.
    raw_payload: dict[str, Any] | Callable[[], dict[str, Any]]

    def __init__(self, id: str, label: str | Callable[[], str], player: int,
                 payload: dict[str, Any] | Callable[[], dict[str, Any]]) -> None:
        setter = object.__setattr__
        setter(self, "id", id)
        setter(self, "player", player)
        setter(self, "_label", label)
        setter(self, "raw_payload", payload)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"an Action cannot be changed (tried to set '{name}')")

    @property
    def label(self) -> str:
        label = self._label
        if not isinstance(label, str):
            label = label()
            object.__setattr__(self, "_label", label)
        return label

    @property
    def payload(self) -> dict[str, Any]:
        """What the action does, as plain data: a copy, so changing it changes nothing."""
        return copy_data(self.internal_payload())

    def internal_payload(self) -> dict[str, Any]:
        """The payload itself, for the engine, which never changes it."""
        payload = self.raw_payload
        if not isinstance(payload, dict):
            payload = payload()
            object.__setattr__(self, "raw_payload", payload)
        return payload

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return (self.id, self.label, self.player) == (other.id, other.label, other.player)

    def __hash__(self) -> int:
        return hash((self.id, self.label, self.player))

    def __repr__(self) -> str:
        return f"Action(id={self.id!r}, label={self.label!r}, player={self.player!r})"

    def __str__(self) -> str:
        return self.label


# ---------------------------------------------------------------- new games


def initial_data(game: Game, players: int, seed: int, options: dict[str, Any] | None) -> dict[str, Any]:
    """The data a game starts from, before its setup runs.

    Its tables are made once for each number of players and shared by every game started with it: a job
    changes a table only in a copy of its own (copy on write, `Ctx.own`), so no game changes them. Only
    the top level, the seed, the random stream and the options' vars are each game's own.
    """
    tables = game.initial_tables.get(players)
    if tables is None:
        tables = game.initial_tables[players] = _initial_tables(game, players)
    data = {**tables, "seed": seed, "rng": rng.seed_state(seed)}
    if options is not None:
        from ..errors import PackError, did_you_mean
        from ..validation import check_options

        model = game.model
        for name in options if isinstance(options, dict) else ():
            if not isinstance(name, str):
                raise PackError(f"an option's name must be text, not {type(name).__name__}")
            if name not in model.game_vars:
                raise PackError(f"unknown option '{name}' (options set the pack's game vars)",
                                hint=did_you_mean(name, model.game_vars))
        # A table, each of its var's type and within its bounds, as a log's options and a saved state's vars
        # are checked (InvalidData, a PackError, names the option): generated code relies on them.
        data["v"] = {**tables["v"], **check_options(game, options, players, path="options")}
    return data


def _initial_tables(game: Game, players: int) -> dict[str, Any]:
    model = game.model
    data: dict[str, Any] = {
        "n": players,
        "seed": 0,
        "rng": None,
        "v": {name: start_value(var) for name, var in model.game_vars.items()},
        "pv": [{name: start_value(var) for name, var in model.player_vars.items()} for _ in range(players)],
        "ev": {},
        "z": {},
        "blocked": [],
        "flow": {"phase": game.start_phase, "stage": "", "active": 0, "order": [], "pos": 0, "turn": 0,
                 "round": 0, "end_turn": False, "entered": False, "simul": None, "idle": 0,
                 "usage": {"turn": {}, "visit": {}, "game": {}}},
        "result": None,
    }
    for kind_name, kind in model.kinds.items():
        if kind.vars:
            for item in model.items_of(kind_name, players):
                data["ev"][item] = {name: start_value(var) for name, var in kind.vars.items()}
    for zone_name, zone in model.zones.items():
        if zone.owner == "game":
            data["z"][zone_name] = initial_content(model, zone_name)
        elif zone.owner == "player":
            for p in range(players):
                data["z"][f"{zone_name}@{p}"] = initial_content(model, zone_name)
        else:  # one zone for each item of the owning kind
            for item in model.items_of(zone.owner, players):
                data["z"][f"{zone_name}@{item}"] = initial_content(model, zone_name)
    return data


def start_value(var: Any) -> Any:
    """The value a var starts a game (or a turn) with."""
    if var.start is not None:
        return list(var.start) if isinstance(var.start, list) else var.start
    if var.type == "int":
        return var.min if var.min is not None and var.min > 0 else 0
    if var.type == "bool":
        return False
    if var.type.startswith("list"):
        return []
    return None


# ---------------------------------------------------------------- legal actions


def enumerate_actions(game: Game, data: dict[str, Any], player: int, ctx: Ctx | None = None) -> list[Action]:
    """The actions `player` may take in the current stage (listed on `ctx`, a context for reading, if given).

    The `anytime` actions come last, and only when the stage offers the player
    something else: they never make a decision point on their own.
    """
    result: list[Action] = []
    stage = data["flow"]["stage"]
    for found in _offer(game, data, player, game.actions_by_stage.get(stage), ctx, game.stage_tests.get(stage)):
        result.extend(found)
    if result:
        result.extend(enumerate_anytime(game, data, player, ctx))
    return result


def enumerate_action_bindings(game: Game, data: dict[str, Any], player: int,
                              action: CompiledAction) -> list[Action]:
    """The legal bindings of one action for `player`, as `enumerate_actions` lists them (its limits included)."""
    result: list[Action] = []
    for found in _offer(game, data, player, [action]):
        result.extend(found)
    return result


def has_action(game: Game, data: dict[str, Any], player: int, ctx: Ctx | None = None) -> bool:
    """Whether `player` has a legal action in the current stage (the listing stops at the first action that has)."""
    stage = data["flow"]["stage"]
    if stage in game.open_stages:
        return True
    return next(_offer(game, data, player, game.actions_by_stage.get(stage), ctx, game.stage_tests.get(stage)),
                None) is not None


def enumerate_anytime(game: Game, data: dict[str, Any], player: int, ctx: Ctx | None = None) -> list[Action]:
    """The `anytime` actions `player` may take now, whether or not it is their decision."""
    result: list[Action] = []
    for found in _offer(game, data, player, game.anytime_by_stage.get(data["flow"]["stage"]), ctx):
        result.extend(found)
    return result


def _offer(game: Game, data: dict[str, Any], player: int, actions: list[CompiledAction] | None,
           done: Ctx | None = None, passing: Callable[..., Iterable[CompiledAction]] | None = None
           ) -> Iterator[list[Action]]:
    """For each of `actions` in turn that has legal bindings, the list of them (on `done`, a finished job's
    context or one for reading, if given). `passing`, when `actions` are a stage's own, tests their limits and `when`s
    (`Game.stage_tests`); otherwise `_passing` does."""
    if not actions:
        return
    flow = data["flow"]
    if done is None:
        ctx = Ctx.for_reading(game.program, data, player)
    else:
        ctx = done
        ctx.read_on(player)
    count = 0  # legal actions so far, against MAX_LEGAL_ACTIONS
    # The helpers `_param_options`, `_maker` and `_make_action` are written in place here for the usual cases:
    # this loop runs for every action of the stage that passes its limits and `when`, at every decision.
    if passing is None:
        chosen: Iterable[CompiledAction] = _passing(ctx, player, actions, flow)
    elif passing is every_action:  # nothing to test: no call
        chosen = actions
    else:
        chosen = passing(ctx, player, actions, flow["usage"])
    for action in chosen:
        single = action.single_options
        if single is not None:
            # The generated loop called here, not through `_bind` as for several parameters: going through
            # `_bind` cost 1.4-1.7% more instructions a decision on the built-in packs measured.
            options = action.fixed_options
            if options is None:
                ctx.env = {}
                options = single(ctx)
                if type(options) is not list:
                    options = as_list(game.model, ctx.data, options, action.params[0].where)
            found = action.lister(ctx, options, action.tables[player], MAX_LEGAL_ACTIONS - count,
                                  action.makers[player] or _maker(game, action, player), None)
            if found is None:
                _too_many(action)
        elif action.paired:
            found = _bind_pair(game, ctx, action, player, MAX_LEGAL_ACTIONS - count)
        elif action.params:
            found = []
            _bind(game, ctx, action, 0, player, [], found, MAX_LEGAL_ACTIONS - count)
        elif not action.requires and not action.costs:
            found = [action.tables[player].get(()) or _make_action(game, action, [], player)]
        else:
            ctx.env = {}
            if not _allowed(ctx, action):
                continue
            found = [action.tables[player].get(()) or _make_action(game, action, [], player)]
        if found:
            count += len(found)
            yield found


def every_action(ctx: Ctx, player: int, actions: list[CompiledAction], usage: dict[str, Any]) -> list[CompiledAction]:
    """The test of actions that have no limit and no `when`: all of them pass."""
    return actions


def _passing(ctx: Ctx, player: int, actions: list[CompiledAction], flow: dict[str, Any]) -> Iterator[CompiledAction]:
    """Each of `actions` whose usage counts are under its limits and whose `when` holds, in turn (what a
    stage's generated filter does for its own actions)."""
    for action in actions:
        if action.limited and not _within_limits(action, flow, player):
            continue
        ctx.env = {}
        when = action.when
        if when is None or when(ctx):
            yield action


def _maker(game: Game, action: CompiledAction, player: int) -> Callable[[Any], Action]:
    """What makes `action`'s Action for `player` with its one parameter bound to a value (`_make_action`)."""
    maker = action.makers[player]
    if maker is None:
        def maker(value: Any) -> Action:
            return _make_action(game, action, [value], player)
        action.makers[player] = maker
    return maker  # type: ignore[no-any-return]


def _allowed(ctx: Ctx, action: CompiledAction) -> bool:
    """Whether the bound action is affordable (each cost leaves its counter at or above its floor) and
    passes every `require`."""
    for var, amount in action.costs:
        floor = ctx.model.player_vars[var].min or 0
        if ctx.data["pv"][ctx.me][var] - amount(ctx) < floor:
            return False
    for check, _ in action.requires:
        if not check(ctx):
            return False
    return True


def _within_limits(action: CompiledAction, flow: dict[str, Any], player: int) -> bool:
    usage = flow["usage"]
    for scope, key, most in action.limit_checks[player]:  # a loop, not `all` of a generator: run per decision
        if usage[scope].get(key, 0) >= most:
            return False
    return True


def usage_key(action: CompiledAction, player: int) -> str:
    """What a turn's or visit's `limit` counts: the action, or for an `anytime` action each player's uses of it."""
    return action.player_keys[player] if action.anytime else action.name


def _param_options(game: Game, ctx: Ctx, action: CompiledAction, param: Any) -> list[Any]:
    """The options of one of `action`'s parameters, with the earlier ones bound in ctx.env, as a list."""
    options = param.options(ctx)
    if type(options) is not list:
        options = as_list(game.model, ctx.data, options, param.where)
    return options  # type: ignore[no-any-return]


def _bind(game: Game, ctx: Ctx, action: CompiledAction, index: int, player: int, values: list[Any],
          out: list[Action], room: int) -> None:
    """Bind parameter `index` to each of its options in turn (the earlier ones bound to `values`).

    `room` is how many more legal actions the decision may have before it has too many.
    """
    params = action.params
    env = dict(zip(action.param_names, values, strict=False)) if values else {}  # the earlier ones, in C
    ctx.env = env
    options = _param_options(game, ctx, action, params[index])
    if index + 1 == len(params):
        lister = action.lister
        if lister is None:
            _bind_last(game, ctx, action, player, values, options, env, out, room)
            return
        # The generated loop of the last parameter, as `_bind_last` binds it, the earlier ones in ctx.env:
        # Actions are filed by the tuple of values when they are plain (as `_make_action` files them; by the
        # value alone with no earlier one), otherwise each is made afresh.
        plain = _plain_values(values)
        listed = lister(ctx, options, action.tables[player] if plain else {}, room - len(out),
                        lambda value: _make_action(game, action, [*values, value], player),
                        values if plain and values else None)
        if listed is None:
            _too_many(action)
        out.extend(listed)
        return
    seen: dict[str, Any] = {}
    for value in options:
        kind = type(value)
        key = value if kind is str else str(value) if kind is int else option_id(value)
        if key in seen:
            if seen[key] is not value and not same_value(seen[key], value):
                raise _collide(game, action, index, seen[key], value, key)
            continue
        seen[key] = value
        if "," in key:
            raise _comma_in_id(action, index, key)
        ctx.steps += 1  # each binding tried is a step of the listing's budget
        if ctx.steps > ctx.budget:
            ctx.steps -= 1
            ctx.tick(action.where)
        _bind(game, ctx, action, index + 1, player, [*values, value], out, room)
        ctx.env = env


def _bind_pair(game: Game, ctx: Ctx, action: CompiledAction, player: int, room: int) -> list[Action]:
    """The bindings of an action of two parameters whose second `lister` lists (`CompiledAction.paired`): what
    `_bind` finds for it, with the same steps and errors, the first parameter bound by this loop rather than by
    `_bind` calling itself for each value. Its head is written out as in `_bind_last` (see there why)."""
    first, second = action.params
    name = action.param_names[0]
    lister = action.lister
    table = action.tables[player]
    model = game.model
    out: list[Action] = []
    env: dict[str, Any] = {}
    ctx.env = env
    options = first.options(ctx)
    if type(options) is not list:
        options = as_list(model, ctx.data, options, first.where)
    seen: dict[str, Any] = {}
    for value in options:
        kind = type(value)
        key = value if kind is str else str(value) if kind is int else option_id(value)
        if key in seen:
            if seen[key] is not value and not same_value(seen[key], value):
                raise _collide(game, action, 0, seen[key], value, key)
            continue
        seen[key] = value
        if "," in key:
            raise _comma_in_id(action, 0, key)
        ctx.steps += 1  # each binding tried is a step of the listing's budget
        if ctx.steps > ctx.budget:
            ctx.steps -= 1
            ctx.tick(action.where)
        ctx.env = {name: value}
        choices = second.options(ctx)
        if type(choices) is not list:
            choices = as_list(model, ctx.data, choices, second.where)
        plain = kind is str or kind is int  # `_plain_values([value])`: the Actions are filed by (value, choice)
        listed = lister(ctx, choices, table if plain else {}, room - len(out),
                        _pair_maker(game, action, player, value), [value] if plain else None)
        if listed is None:
            _too_many(action)
        out.extend(listed)
        ctx.env = env
    return out


def _pair_maker(game: Game, action: CompiledAction, player: int, first: Any) -> Callable[[Any], Action]:
    def make(value: Any) -> Action:
        return _make_action(game, action, [first, value], player)

    return make


def _bind_last(game: Game, ctx: Ctx, action: CompiledAction, player: int, values: list[Any], options: list[Any],
               env: dict[str, Any], out: list[Action], room: int) -> None:
    """Bind the innermost parameter to each of `options` in place: its checks read the same table each time.

    The loop's head (an option seen before is skipped, each one tried is a step) is written out here, in
    `_bind` and in `_bind_id` rather than shared through a generator, which cost 1.3-2.1% more
    instructions per decision on the built-in packs measured (benchmarks/count_instructions.py).
    """
    name = action.params[-1].name
    # Most actions have no `require` and no cost, or one `require`: then `_allowed` is not called.
    requires = action.requires
    always = not requires and not action.costs
    only = requires[0][0] if len(requires) == 1 and not action.costs else None
    table = action.tables[player]
    plain = _plain_values(values)
    seen: dict[str, Any] = {}
    for value in options:
        kind = type(value)
        key = value if kind is str else str(value) if kind is int else option_id(value)
        if key in seen:
            if seen[key] is not value and not same_value(seen[key], value):
                raise _collide(game, action, len(action.params) - 1, seen[key], value, key)
            continue
        seen[key] = value
        ctx.steps += 1  # each binding tried is a step of the listing's budget
        if ctx.steps > ctx.budget:
            ctx.steps -= 1
            ctx.tick(action.where)
        env[name] = value
        ctx.env = env
        if always or (only(ctx) if only is not None else _allowed(ctx, action)):
            if len(out) >= room:
                _too_many(action)
            if plain and (kind is str or kind is int):
                # The key `_make_action` files it under, found without building the list of values.
                found = table.get((*values, value) if values else value)
                if found is None:
                    found = _make_action(game, action, [*values, value], player)
                out.append(found)
            else:
                out.append(_make_action(game, action, [*values, value], player))


def _collide(game: Game, action: CompiledAction, index: int, a: Any, b: Any, key: str) -> ProgramError:
    param = action.params[index]
    return options_collide(game.model, f"parameter '{param.name}'", a, b, key, param.where)


def _comma_in_id(action: CompiledAction, index: int, key: str) -> ProgramError:
    """An option of a parameter before the last whose id holds a comma: in the action's id the commas part
    the parameters, so `x` then `y,z` and `x,y` then `z` would both be `x,y,z` (the last may hold commas)."""
    param = action.params[index]
    return ProgramError(f"option '{key}' of parameter '{param.name}' holds a comma, which parts an action id's "
                        f"parameters (only the last parameter's options may hold one), in {param.where}")


def _too_many(action: CompiledAction) -> NoReturn:
    raise ProgramError(f"more than {MAX_LEGAL_ACTIONS} legal actions at one decision, in {action.where}")


# ---------------------------------------------------------------- one action by id


def find_action(game: Game, data: dict[str, Any], player: int, wanted: str, ctx: Ctx | None = None) -> Action | None:
    """The first action with id `wanted` that `enumerate_actions` would list, or None if it lists none (run on
    `ctx`, a context for reading, if given).

    An id names its action (`buy:ship_2,gold` is action `buy` bound to `ship_2`
    and `gold`), so only that action's parameter combinations are bound and
    checked, in the listing's order, following the id: the other actions'
    rules are not run.
    """
    name, colon, rest = wanted.partition(":")
    action = game.actions.get(name)
    stage = data["flow"]["stage"]
    if action is None or stage not in action.stages or bool(colon) != bool(action.params):
        return None
    if action.anytime and not has_action(game, data, player, ctx):
        return None  # anytime actions are offered only beside the stage's own
    if action.limited and not _within_limits(action, data["flow"], player):
        return None
    if ctx is None:
        ctx = Ctx.for_reading(game.program, data, player)
    else:
        ctx.read_on(player)
    if action.when is not None and not action.when(ctx):
        return None
    if not action.params:
        return _make_action(game, action, [], player) if _allowed(ctx, action) else None
    return _bind_id(game, ctx, action, 0, player, [], rest)


def _bind_id(game: Game, ctx: Ctx, action: CompiledAction, index: int, player: int, values: list[Any],
             rest: str) -> Action | None:
    """`_bind`, trying only the options whose id begins what is left of the wanted id (`rest`)."""
    params = action.params
    env = dict(zip(action.param_names, values, strict=False)) if values else {}  # the earlier ones, in C
    ctx.env = env
    param = params[index]
    options = _param_options(game, ctx, action, param)
    seen: dict[str, Any] = {}
    last = index + 1 == len(params)
    if not last:  # refused whole, as the listing refuses it, whichever option the id names
        for value in options:
            if "," in (key := option_id(value)):
                raise _comma_in_id(action, index, key)
    for value in options:
        kind = type(value)
        key = value if kind is str else str(value) if kind is int else option_id(value)  # the option's id
        if key in seen:
            if seen[key] is not value and not same_value(seen[key], value):
                raise _collide(game, action, index, seen[key], value, key)
            continue
        seen[key] = value
        ctx.steps += 1
        if ctx.steps > ctx.budget:
            ctx.steps -= 1
            ctx.tick(action.where)
        if last:
            if key != rest:
                continue
            env[param.name] = value
            ctx.env = env
            if _allowed(ctx, action):
                return _make_action(game, action, [*values, value], player)
        elif rest.startswith(key) and rest[len(key):len(key) + 1] == ",":
            found = _bind_id(game, ctx, action, index + 1, player, [*values, value], rest[len(key) + 1:])
            if found is not None:
                return found
            ctx.env = env
    return None


# A table of actions with more distinct bindings than this for one player starts again (memory stays bounded).
_MAX_CACHED_ACTIONS = 20_000


def _make_action(game: Game, action: CompiledAction, values: list[Any], player: int) -> Action:
    """The action with its parameters bound to `values`: one shared, immutable object per id and player."""
    if values and not _plain_values(values):
        return _new_action(game, action, values, player)
    table = action.tables[player]
    # One parameter is keyed by its value alone, several by the tuple of them, none by ().
    key = (values[0] if len(values) == 1 else tuple(values)) if values else ()
    found = table.get(key)
    if found is None:
        if len(table) >= _MAX_CACHED_ACTIONS:
            table.clear()
        found = table[key] = _new_action(game, action, values, player)
    return found  # type: ignore[no-any-return]


def _plain_values(values: list[Any]) -> bool:
    """Whether `values` are only str and int: hashable, and 1 and True stay apart, so they can key a table."""
    for value in values:
        kind = type(value)
        if kind is not str and kind is not int:
            return False
    return True


def _new_action(game: Game, action: CompiledAction, values: list[Any], player: int) -> Action:
    if not action.params:
        return Action(action.name, action.label or action.name, player, {"action": action.name, "args": {}})
    args = {p.name: v for p, v in zip(action.params, values, strict=True)}
    try:
        action_id = f"{action.name}:{','.join(option_id(v) for v in values)}"
    except ProgramError as exc:  # a list too big to name an action
        where = next((p.where for p, v in zip(action.params, values, strict=True) if isinstance(v, list)),
                     action.name)
        raise ProgramError(f"{exc.message} in {where}") from None

    def label() -> str:
        return action_label(game.model, action, args)

    def payload() -> dict[str, Any]:
        return {"action": action.name, "args": {k: _plain(v) for k, v in args.items()}}

    if _plain_values(values):  # kept in a table and taken again and again: the payload made once, now
        return Action(action_id, label, player, {"action": action.name, "args": args})
    return Action(action_id, label, player, payload)


def action_label(model: Model, action: CompiledAction, args: dict[str, Any],
                 shown: Callable[[str], str] | None = None) -> str:
    """The label of `action` with its parameters bound to `args`: the pack's label with each `{param}` written
    as `label_of` writes its value, passed through `shown` if given (what a seat may read of a value: the
    label's own words are the pack's, the same in every game, and hide nothing)."""
    if not action.params:
        return action.label or action.name
    labels = {p.name: label_of(model, args[p.name], p.type == "player") for p in action.params}
    if shown is not None:
        labels = {name: shown(text) for name, text in labels.items()}
    if action.label:
        # Plain substitution of {param}: str.format would also follow {param.attr} into Python objects.
        return _PLACEHOLDER.sub(lambda m: labels.get(m.group(1), m.group(0)), action.label)
    return f"{action.name} ({', '.join(labels.values())})"


def _plain(value: Any) -> Any:
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, int | str | bool) or value is None:
        return value
    return option_id(value)


# ---------------------------------------------------------------- jobs


def run_job(game: Game, ctx: Ctx, job: dict[str, Any]) -> None:
    """Run a job to completion (or until it suspends or the game ends)."""
    try:
        kind = job["kind"]
        if kind == "action":
            _run_action(game, ctx, job["player"], job["action"], job["args"], resumable=True)
        elif kind == "setup":
            ctx.me = 0
            game.setup(ctx)
            ctx.env = {}
            game.program.emit(ctx, "game_start", [])
            _enter_phase(game, ctx, game.start_phase)
        elif kind == "pick":
            _record_pick(game, ctx, job["player"], job["action"], job["args"])
        else:  # pragma: no cover - jobs are made by the engine only
            raise ProgramError(f"unknown job kind {kind!r}")
        settle(game, ctx)
    except GameOver as over:
        finish(game, ctx, over.reason)


def act(game: Game, ctx: Ctx, player: int, name: str, args: dict[str, Any]) -> None:
    """Run the job of an action taken on its own: what `run_job` runs for such a job, without looking at the
    job's kind (nearly every decision is one)."""
    try:
        _run_action(game, ctx, player, name, args, resumable=True)
        if game.simple_flow:
            settle_simply(game, ctx)
        else:
            settle(game, ctx)
    except GameOver as over:
        finish(game, ctx, over.reason)


def resume_job(game: Game, ctx: Ctx, effect: Generator[Suspend, None, None]) -> None:
    """Go on with an action's job from the choice its effect stopped at (`Suspend.resume`), the answer now
    in `ctx.answers`: the rest of the effect, then the flow, as `run_job` would have run them."""
    try:
        _run_effect(effect)
        ctx.env = {}
        settle(game, ctx)
    except GameOver as over:
        finish(game, ctx, over.reason)


def _run_effect(effect: Generator[Suspend, None, None]) -> None:
    """Run a resumable effect to its end; at a choice with no answer, stop with the effect to resume."""
    for waiting in effect:
        waiting.resume = effect
        raise waiting.with_traceback(None)


def _run_action(game: Game, ctx: Ctx, player: int, name: str, args: dict[str, Any],
                resumable: bool = False) -> None:
    action = game.actions[name]
    ctx.me = player
    ctx.env = {**args}
    before = ctx.checkpoint() if ctx.olds is not None else None  # checking properties: old(...) reads it
    if action.costs:
        _pay(game, ctx, player, action)
    flow = ctx.data["flow"]
    usage = flow["usage"]
    key = action.player_keys[player]
    counted = key if action.anytime else name  # usage_key(action, player)
    turn, visit, whole = usage["turn"], usage["visit"], usage["game"]
    turn[counted] = turn.get(counted, 0) + 1
    visit[counted] = visit.get(counted, 0) + 1
    whole[key] = whole.get(key, 0) + 1
    flow["idle"] = 0
    if before is None:
        if resumable and action.resumable is not None:
            # Only a job that is this one action can go on from a choice: then the flow is all that follows.
            _run_effect(action.resumable(ctx))
        else:
            action.effect(ctx)
    else:
        run_checked_effect(ctx, action.effect, action.checks, before)
    ctx.env = {}


def _pay(game: Game, ctx: Ctx, player: int, action: CompiledAction) -> None:
    for var, amount in action.costs:
        cost = amount(ctx)
        floor = game.model.player_vars[var].min or 0
        if ctx.data["pv"][player][var] - cost < floor:
            raise RuleViolation(f"cannot afford {cost} {var}")
        ctx.own("pv", player)[var] -= cost


def _record_pick(game: Game, ctx: Ctx, player: int, name: str, args: dict[str, Any]) -> None:
    simul = ctx.data["flow"]["simul"]
    simul["picks"][str(player)] = {"action": name, "args": args}
    ctx.data["flow"]["idle"] = 0
    if all(str(p) in simul["picks"] for p in simul["players"]):
        _resolve_simultaneous(game, ctx)


def _resolve_simultaneous(game: Game, ctx: Ctx) -> None:
    flow = ctx.data["flow"]
    simul = flow["simul"]
    stage = game.stages[flow["stage"]]
    for p in sorted(simul["players"]):
        pick = simul["picks"][str(p)]
        # Picks made blind may clash (two players take the last of something): a pick that
        # breaks a rule when its turn comes is refused alone, and the others stand.
        before, drawn = ctx.checkpoint(), len(ctx.chance)
        try:
            _run_action(game, ctx, p, pick["action"], pick["args"])
        except RuleViolation as refused:
            ctx.rollback(before)
            del ctx.chance[drawn:]
            ctx.messages.append(f"Player {p + 1}'s choice was refused: {refused.message}")
    flow["simul"] = None
    ctx.me = flow["active"]
    ctx.env = {}
    stage.resolve(ctx)


def settle(game: Game, ctx: Ctx) -> None:
    """Advance the flow until a player must decide, or the game ends."""
    data = ctx.data
    flow = data["flow"]
    n = data["n"]
    # After a turn passed with no pack code run, end conditions that read no flow value see what the check
    # just before saw, and give the same answer (lang/reads.py): they are not run again, and the steps they
    # took are charged again so that the step budget runs out exactly where it would have.
    skippable = game.ends_skippable
    skip = False
    ends_steps = 0
    ends = game.ends
    entries = 0  # stages entered since the turn began (or since this settle began)
    while True:
        if not ends:  # only the turn limit to check
            if flow["turn"] > game.max_turns:
                raise GameOver("turn limit")
        elif skip and ctx.steps + ends_steps <= ctx.budget:
            ctx.env = {}
            ctx.me = flow["active"]
            ctx.steps += ends_steps
            if flow["turn"] > game.max_turns:
                raise GameOver("turn limit")
        else:
            steps = ctx.steps
            ctx.env = {}
            for condition, reason in ends:
                ctx.me = flow["active"]
                if condition(ctx):
                    raise GameOver(reason)
            if flow["turn"] > game.max_turns:
                raise GameOver("turn limit")
            ends_steps = ctx.steps - steps
        skip = False
        if flow["end_turn"]:
            phase = game.phases[flow["phase"]]
            if phase.name in game.plain_phases:
                # No pack code runs as its turns end (`Game.plain_phases`): the next seat of the same rotation
                # starts. Written here rather than in `_next_turn`: nearly every decision passes a turn.
                flow["simul"] = None
                pos = flow["pos"] + 1
                if pos >= len(flow["order"]):
                    flow["round"] += 1
                    pos = 0
                flow["pos"] = pos
                quiet = _start_turn(game, ctx, phase)
            else:
                quiet = _next_turn(game, ctx, phase)
            skip = skippable and quiet
            entries = 0
            continue
        if flow["entered"]:
            flow["entered"] = False
            stage = game.stages[flow["stage"]]
            entries += 1
            if entries > MAX_ENTRIES_PER_TURN:
                # The budget would stop it anyway, blaming whatever code ran last (an end condition, say).
                raise ProgramError(f"the flow entered stages {MAX_ENTRIES_PER_TURN:,} times in one turn with no "
                                   f"decision, the last {stage.where}: an on_enter goes back to a stage at once")
            # Entering a stage with nothing to do changes nothing the pack can read: the ends just
            # checked still do not hold, so the flow goes on to the legal actions at once.
            if stage.on_enter is not nothing or stage.simultaneous is not None:
                ctx.me = flow["active"]
                ctx.env = {}
                stage.on_enter(ctx)
                if stage.simultaneous is not None:
                    ctx.me = flow["active"]
                    players = _players(stage.simultaneous(ctx), ctx.data["n"], "simultaneous", stage.where)
                    flow["simul"] = {"players": sorted(set(players)), "picks": {}}
                continue
        simul = flow["simul"]
        if simul is not None:
            waiting = [p for p in simul["players"] if str(p) not in simul["picks"]]
            able = [p for p in waiting if has_action(game, data, p)]
            if len(able) < len(waiting):
                simul["players"] = [p for p in simul["players"] if str(p) in simul["picks"] or p in able]
            if able:
                return
            if simul["picks"]:
                _resolve_simultaneous(game, ctx)
                continue
            flow["simul"] = None
        elif list_first(game, ctx, data, flow):  # the first legal actions, and the listing that goes on
            return
        # Nobody can act here: the turn passes on by itself.
        flow["idle"] += 1
        if flow["idle"] > MAX_IDLE_TURNS_PER_PLAYER * n + 2:
            raise _stuck(game, flow["stage"])
        flow["end_turn"] = True


def list_first(game: Game, ctx: Ctx, data: dict[str, Any], flow: dict[str, Any]) -> bool:
    """List the active player's first legal actions at the flow's stage into `ctx.found`, with the listing that
    goes on from there; False if they have none.

    The actions of `enumerate_actions`, in the same order, are listed one action's bindings at a time, each only
    when the ones before are taken. The flow needs the first (whether the player can act at all); the rest are
    listed when someone asks for them, and an error in a rule is raised when the listing reaches it. In an open
    stage an action is always legal: nothing is listed yet (the first list is empty). The anytime actions'
    listing starts only when the stage's own are all listed. The listing runs on `ctx`, a finished job's.
    """
    stage_name = flow["stage"]
    alone = game.listed_alone.get(stage_name)
    if alone is not None:
        # The stage's one action, untested, its bindings listed by one generated loop: called here, without
        # `_offer`'s generator (whose branch for such an action this is), on this context.
        active = flow["active"]
        ctx.read_on(active)
        options = alone.fixed_options
        if options is None:
            ctx.env = {}
            options = alone.single_options(ctx)
            if type(options) is not list:
                options = as_list(game.model, data, options, alone.params[0].where)
        bindings = alone.lister(ctx, options, alone.tables[active], MAX_LEGAL_ACTIONS,
                                alone.makers[active] or _maker(game, alone, active), None)
        if bindings is None:
            _too_many(alone)
        if bindings:
            ctx.found = bindings, None
            return True
        return False
    listing = _offer(game, data, flow["active"], game.actions_by_stage.get(stage_name), ctx,
                     game.stage_tests.get(stage_name))
    first: list[Action] | None = [] if stage_name in game.open_stages else next(listing, None)
    if first is None:
        return False
    anytime = game.anytime_by_stage.get(stage_name)
    if anytime:
        ctx.found = first, chain(listing, _offer(game, data, flow["active"], anytime, ctx))  # counted as work too
    elif stage_name in game.one_action_stages:
        ctx.found = first, None  # the stage's one action is listed whole: nothing follows
    else:
        ctx.found = first, listing
    return True


def settle_simply(game: Game, ctx: Ctx) -> None:
    """`settle` after an action in a game whose flow is simple (`Game.simple_flow`): every turn passes and
    starts with no pack code run, every stage is entered with nothing to run, and the ends read no flow value.
    What the general loop does there, in order and with the same steps, written for that shape: the ends, the
    next turn started in place with the ends' steps charged again rather than the ends asked again, then the
    listing. Where the general loop would go round again (no room in the budget to charge the ends' steps,
    nobody able to act), it takes over from there (`tests/engine/test_simple_flow.py`)."""
    data = ctx.data
    flow = data["flow"]
    ends = game.ends
    steps = ctx.steps
    ctx.env = {}
    for condition, reason in ends:
        ctx.me = flow["active"]
        if condition(ctx):
            raise GameOver(reason)
    if flow["turn"] > game.max_turns:
        raise GameOver("turn limit")
    if flow["end_turn"]:
        flow["simul"] = None
        pos = flow["pos"] + 1
        order = flow["order"]
        if pos >= len(order):
            flow["round"] += 1
            pos = 0
        flow["pos"] = pos
        flow["active"] = ctx.me = order[pos]
        flow["turn"] += 1
        usage = flow["usage"]
        usage["turn"] = {}
        usage["visit"] = {}
        flow["stage"] = game.phases[flow["phase"]].stage
        flow["entered"] = True  # as a game that ends here leaves it
        flow["end_turn"] = False
        if ends:
            ends_steps = ctx.steps - steps
            if ctx.steps + ends_steps > ctx.budget:  # the ends asked again, to the budget's error
                settle(game, ctx)
                return
            ctx.env = {}
            ctx.steps += ends_steps
        if flow["turn"] > game.max_turns:
            raise GameOver("turn limit")
    flow["entered"] = False
    if list_first(game, ctx, data, flow):
        return
    # Nobody can act: the turn passes by itself, and the general loop goes on from there.
    flow["idle"] += 1
    if flow["idle"] > MAX_IDLE_TURNS_PER_PLAYER * data["n"] + 2:
        raise _stuck(game, flow["stage"])
    flow["end_turn"] = True
    settle(game, ctx)


def _stuck(game: Game, stage: str) -> ProgramError:
    """No player can act, turn after turn: an error at the stage's definition (it named no file)."""
    return ProgramError(f"the game is stuck: no player has a legal action in {game.stages[stage].where}")


def _enter_phase(game: Game, ctx: Ctx, name: str) -> None:
    flow = ctx.data["flow"]
    entered: list[str] = []
    while True:
        phase = game.phases[name]
        flow["phase"] = name
        flow["round"] = 1
        ctx.me = flow["active"]
        ctx.env = {}
        phase.on_enter(ctx)
        flow["order"] = _order(game, ctx, phase)
        flow["pos"] = 0
        if flow["order"]:
            _start_turn(game, ctx, phase)
            return
        # An empty order: nobody takes a turn, so the phase is only its on_enter and passes on at once.
        if phase.next is None:
            raise GameOver(f"phase {phase.name} ended")
        entered.append(name)
        if len(entered) > len(game.phases):
            raise ProgramError("no phase has a player to take a turn: " + " -> ".join(entered + [phase.next])
                               + f", in {phase.where}")
        name = phase.next


def _order(game: Game, ctx: Ctx, phase: Any) -> list[int]:
    n = ctx.data["n"]
    ctx.env = {}
    if isinstance(phase.order, str):
        first = phase.first(ctx)
        if not isinstance(first, int) or not 0 <= first < n:
            raise ProgramError(f"first player {first!r} is not a player in {phase.where}")
        step = 1 if phase.order == "clockwise" else -1
        return [(first + step * i) % n for i in range(n)]
    return _players(phase.order(ctx), n, "order", phase.where)


def _players(value: Any, n: int, what: str, where: str) -> list[int]:
    """`value`, a phase's order or a stage's simultaneous players, checked to be a list of seats of this game
    (a number past the seats would be offered actions and read past the players' data)."""
    if not isinstance(value, list) or not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p < n
                                                for p in value):
        raise ProgramError(f"{what} must be a list of players, got {value!r}, in {where}")
    return list(value)


def _start_turn(game: Game, ctx: Ctx, phase: Any) -> bool:
    """Start the turn of the seat at the flow's position in `phase`; True if no pack code ran."""
    data = ctx.data
    flow = data["flow"]
    active = flow["active"] = flow["order"][flow["pos"]]
    flow["turn"] += 1
    usage = flow["usage"]
    usage["turn"] = {}
    usage["visit"] = {}
    flow["stage"] = phase.stage
    flow["entered"] = True
    flow["end_turn"] = False
    if game.turn_starts:
        game_vars = data["v"]  # the job's own copy (`fork`)
        for name, value, is_list in game.turn_starts:
            game_vars[name] = list(value) if is_list else value
    ctx.me = active
    quiet = True
    # Each piece of pack code below starts with no locals; when none runs, no table is made.
    if "turn_start" in game.program.hooks:  # most packs have none: no list of arguments to build
        quiet = False
        ctx.env = {}
        direct = game.turn_start_calls
        if direct is None:
            game.program.emit(ctx, "turn_start", [active])
        else:
            # What `emit` runs, without its call and each hook's entry point: nearly every turn starts here.
            # Each definition takes back its own level of nesting as it returns; an error leaves it to this.
            depth = ctx.depth
            try:
                for definition in direct:
                    definition(ctx, active)
            finally:
                ctx.depth = depth
    if phase.on_turn_start is not nothing:
        quiet = False
        ctx.env = {}
        phase.on_turn_start(ctx)
    return quiet


def _next_turn(game: Game, ctx: Ctx, phase: Any) -> bool:
    """Pass the turn on in a phase that is not plain (`settle` passes it in one that is); True if no pack
    code ran (no hook, phase snippet or order) and the phase stayed."""
    flow = ctx.data["flow"]
    hooks = game.program.hooks
    flow["end_turn"] = False
    flow["simul"] = None
    ctx.me = flow["active"]
    # Each piece of pack code below starts with no locals; when none runs, no table is made.
    quiet = True
    if "turn_end" in hooks:
        quiet = False
        ctx.env = {}
        game.program.emit(ctx, "turn_end", [flow["active"]])
    if phase.on_turn_end is not nothing:
        quiet = False
        ctx.env = {}
        phase.on_turn_end(ctx)
    flow["pos"] += 1
    round_over = flow["pos"] >= len(flow["order"])
    if round_over:
        if "round_end" in hooks:
            quiet = False
            ctx.env = {}
            game.program.emit(ctx, "round_end", [])
        if phase.on_round_end is not nothing:
            quiet = False
            ctx.env = {}
            phase.on_round_end(ctx)
    phase_over = round_over and phase.rounds is not None and flow["round"] >= phase.rounds
    if phase.end_when is not None:
        quiet = False
        ctx.env = {}
        phase_over = phase.end_when(ctx) or phase_over
    if phase_over:
        if phase.next is None:
            raise GameOver(f"phase {phase.name} ended")
        _enter_phase(game, ctx, phase.next)
        return False
    if round_over:
        flow["round"] += 1
        flow["pos"] = 0
        if not isinstance(phase.order, str):
            flow["order"] = _order(game, ctx, phase)
            if not flow["order"]:  # nobody is left to play a round: the phase is over
                if phase.next is None:
                    raise GameOver(f"phase {phase.name} ended")
                _enter_phase(game, ctx, phase.next)
                return False
            quiet = False
    return _start_turn(game, ctx, phase) and quiet


def _number(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ProgramError(f"{what} must be a number, not {value!r}")
    return value


def finish(game: Game, ctx: Ctx, reason: str) -> None:
    """End the game: the pack's last effects, then scores, ranking and winners."""
    data = ctx.data
    data["flow"]["simul"] = None
    ctx.me = data["flow"]["active"]
    ctx.env = {}
    try:
        game.before_scoring(ctx)
    except GameOver:
        pass
    n = data["n"]
    scores, keys = [], []
    for p in range(n):
        ctx.env = {"p": p}
        ctx.me = p
        score = _number(game.score(ctx), "the score")
        tiebreaks = [_number(t(ctx), "a tie-break") for t in game.tiebreaks]
        scores.append(score)
        keys.append((score, *tiebreaks))
    ranking = sorted(range(n), key=keys.__getitem__, reverse=True)  # best first; a tie keeps seat order
    places, place = [0] * n, 0
    for i, p in enumerate(ranking):
        if i == 0 or keys[p] != keys[ranking[i - 1]]:  # tied with the one before: the same place
            place = i + 1
        places[p] = place
    winners = [p for p in range(n) if places[p] == 1]
    data["result"] = {
        "reason": reason,
        "scores": scores,
        "tiebreaks": [list(k[1:]) for k in keys],
        "ranking": ranking,
        "places": places,
        "winners": winners,
    }
    ctx.env = {}
