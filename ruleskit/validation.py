"""Checking data from outside against a pack before the engine uses it.

Saves, log headers and lines and scenario options are written by anyone. A
value the engine does not expect (an unknown item, a seat out of range, a
missing flow key, a string where a number belongs) would otherwise fail
later, far from its cause, or silently give a wrong game. Every check here
raises InvalidData naming the JSON path of the first bad value; the readers
add the file and line.
"""

from __future__ import annotations

import json
import reprlib
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .digits import plain_digits
from .errors import PackError
from .limits import MAX_INT_DIGITS, MAX_LIST, MAX_NESTING, MAX_ZONE_ITEMS
from .runtime.values import MAX_INT as MAX_NUMBER

if TYPE_CHECKING:
    from .game import Game
    from .model import Model
    from .runtime.state import State
    from .schema import VarDef

FLOW_KEYS = {"phase", "stage", "active", "order", "pos", "turn", "round", "end_turn", "entered", "simul", "idle",
             "usage"}
DATA_KEYS = {"n", "seed", "rng", "v", "pv", "ev", "z", "blocked", "flow", "result"}
RESULT_KEYS = {"reason", "scores", "tiebreaks", "ranking", "places", "winners"}
JOB_KINDS = {"setup", "action", "pick"}
MAX_INT = 10 ** MAX_INT_DIGITS
MAX_HISTORY = 1_000_000
MAX_SHOWN_OFFERS = 5  # the actions a refused pick's hint names


class InvalidData(PackError):
    """A value from a save, a log or a scenario that does not fit the pack."""

    def __init__(self, path: str, message: str, hint: str | None = None) -> None:
        super().__init__(f"{path}: {message}", hint=hint)
        self.path = path
        self.detail = message


def _at(path: str, key: str | int) -> str:
    return f"{path}[{key}]" if isinstance(key, int) else f"{path}.{key}"


def _kind_name(value: Any) -> str:
    return "none" if value is None else type(value).__name__


def check_int(path: str, value: Any, low: int | None = None, high: int | None = None) -> int:
    if type(value) is not int:
        raise InvalidData(path, f"should be an integer, not {_kind_name(value)} {_short(value)}")
    if not -MAX_INT < value < MAX_INT:
        raise InvalidData(path, f"a number with more than {MAX_INT_DIGITS} digits")
    if low is not None and value < low or high is not None and value > high:
        raise InvalidData(path, f"should be within {low}..{high}, not {value}")
    return value


def check_seat(path: str, value: Any, players: int) -> int:
    return check_int(path, value, 0, players - 1)


def check_str(path: str, value: Any) -> str:
    if not isinstance(value, str):
        raise InvalidData(path, f"should be a string, not {_kind_name(value)} {_short(value)}")
    return value


def check_bool(path: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise InvalidData(path, f"should be true or false, not {_short(value)}")
    return value


def check_table(path: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InvalidData(path, f"should be an object, not {_kind_name(value)} {_short(value)}")
    return value


def check_list(path: str, value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidData(path, f"should be a list, not {_kind_name(value)} {_short(value)}")
    return value


def check_keys(path: str, table: Mapping[str, Any], required: Iterable[str], optional: Iterable[str] = ()) -> None:
    """Exactly the required keys, and perhaps some optional ones."""
    required = set(required)
    allowed = required | set(optional)
    for key in table:
        if not isinstance(key, str):
            raise InvalidData(path, f"a key should be text, not {_kind_name(key)} {_short(key)}")
        if key not in allowed:
            raise InvalidData(_at(path, key), "unknown key")
    for key in sorted(required):
        if key not in table:
            raise InvalidData(_at(path, key), "missing")


def check_plain(path: str, value: Any, depth: int = MAX_NESTING) -> None:
    """JSON-like data (no floats), nested at most `depth` deep."""
    if depth < 0:
        raise InvalidData(path, f"nested more than {MAX_NESTING} deep")
    if value is None or isinstance(value, bool | str):
        return
    if isinstance(value, int):
        check_int(path, value)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            check_plain(_at(path, index), item, depth - 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            check_plain(_at(path, key), item, depth - 1)
    else:
        raise InvalidData(path, f"{_kind_name(value)} is not a game value")


def check_size(path: str, value: Any) -> None:
    """At most `MAX_LIST` values in all, the lists nested in `value` counted whole (a list of a thousand
    references to one 100,000-element list is a hundred million values to the game, its log and its saves)."""
    seen = 0
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, list | dict):
            seen += len(item)
            if seen > MAX_LIST:
                raise InvalidData(path, f"holds more than {MAX_LIST} values in all, nested lists counted whole")
            pending.extend(item.values() if isinstance(item, dict) else item)


def _short(value: Any) -> str:
    text = reprlib.repr(value)  # bounded in depth and length: the value may be nested a million deep
    return text if len(text) <= 60 else text[:57] + "..."


# ------------------------------------------------------------------ values of declared types


def check_value(path: str, model: Model, type_name: str, value: Any, players: int,
                var: VarDef | None = None) -> None:
    """`value` fits the declared type (and the var's bounds, if given)."""
    if type_name.startswith("list"):
        inner = type_name[5:-1] if type_name.startswith("list[") and type_name.endswith("]") else "any"
        if len(check_list(path, value)) > MAX_LIST:
            raise InvalidData(path, f"holds {len(value)} elements, more than a list may ({MAX_LIST})")
        check_size(path, value)
        for index, item in enumerate(value):
            check_value(_at(path, index), model, inner, item, players)
        return
    if type_name == "int":
        # The rule language's numbers stop at +-2^62 ("number out of range" at the pack's line): one past it
        # in a file failed there, at the first sum that read it.
        check_int(path, value, -MAX_NUMBER, MAX_NUMBER)
        if var is not None and (var.min is not None and value < var.min or var.max is not None and value > var.max):
            raise InvalidData(path, f"should be within {var.min}..{var.max}, not {value}")
    elif type_name == "bool":
        check_bool(path, value)
    elif type_name == "str":
        if value is not None:
            check_str(path, value)
    elif type_name == "player":
        if value is not None:
            check_seat(path, value, players)
    elif type_name in model.kinds:
        if value is not None and (not isinstance(value, str) or model.item_kind.get(value) != type_name):
            raise InvalidData(path, f"should be an item of kind '{type_name}' (or none), not {_short(value)}")
        if value is not None:
            _check_seat_of_item(model, value, players, path)
    else:
        check_size(path, value)
        check_plain(path, value)


def check_vars(path: str, model: Model, declared: Mapping[str, VarDef], values: Any, players: int,
               partial: bool = False) -> None:
    table = check_table(path, values)
    if partial:
        check_keys(path, table, (), declared)
    else:
        check_keys(path, table, declared)
    for name, value in table.items():
        var = declared[name]
        check_value(_at(path, name), model, var.type, value, players, var)


def check_options(game: Game, options: Any, players: int, path: str = "$.options") -> dict[str, Any]:
    """Options set game vars before setup: each must be a var of the pack, of its type and within its bounds."""
    if options is None:
        return {}
    check_vars(path, game.model, game.model.game_vars, options, players, partial=True)
    return dict(options)


# ------------------------------------------------------------------ whole states


def check_state(game: Game, saved: Any, path: str = "$", invariants: bool = True) -> None:
    """A saved state (the output of `State.to_json`) fits `game` in every part the engine reads, and (if
    `invariants`) the pack's `[invariants]` hold on it."""
    table = check_table(path, saved)
    check_keys(path, table, ("format", "pack", "version", "hash", "data", "pending", "history"))
    check_data(game, table["data"], _at(path, "data"))
    players = table["data"]["n"]
    check_history(table["history"], players, _at(path, "history"))
    if table["pending"] is not None:
        check_pending(game, table["pending"], players, _at(path, "pending"), (_at(path, "data"), table["data"]))
    elif table["data"]["result"] is None:
        if not table["data"]["flow"]["order"]:
            # The engine stops for a decision in a phase only once its turn order is made (a choice in the
            # phase's `on_enter` comes before), and never in one where nobody takes a turn.
            raise InvalidData(_at(_at(_at(path, "data"), "flow"), "order"),
                              "no seat takes a turn, and the game is not over")
        check_deciders_can_act(game, table["data"], _at(path, "data"))
    if invariants:
        check_invariants_hold(game, table["data"], table["pending"], _at(path, "data"))


def check_invariants_hold(game: Game, data: dict[str, Any], pending: dict[str, Any] | None, path: str) -> None:
    """The pack's `[invariants]` hold on the saved data, as they hold at every decision of a game played (what
    `ruleskit test` checks): a state that fits every type yet breaks one could not have been reached, and
    would fail somewhere in the pack's code once play went on."""
    from .runtime.checks import broken_invariant
    from .runtime.data import copy_data

    acting = pending["player"] if pending is not None else data["flow"]["active"]
    broken = broken_invariant(game, copy_data(data), acting)
    if broken is not None:
        name, detail, where = broken
        raise InvalidData(path, f"breaks the pack's invariant '{name}'{f' ({where})' if where else ''}: {detail}")


def check_deciders_can_act(game: Game, data: dict[str, Any], path: str) -> None:
    """Each player the saved state waits for has a legal action, as the engine leaves every state it stops at
    (a player who cannot act is passed over): otherwise the game could not go on from it."""
    from .errors import RulesError
    from .runtime.data import copy_data
    from .runtime.state import State

    simul = data["flow"]["simul"]
    stage = game.stages.get(data["flow"]["stage"])
    if simul is None and stage is not None and stage.simultaneous is not None:
        # The engine opens a round of picks on entering such a stage: without one, the player whose turn it is
        # took the picks as turns of their own, one after another, and none was resolved.
        raise InvalidData(_at(_at(path, "flow"), "simul"), f"stage {_short(data['flow']['stage'])} is one of "
                          "secret picks made at once, but no round of picks is open")
    if simul is not None and all(str(seat) in simul["picks"] for seat in simul["players"]):
        # Once the last pick is in, the engine resolves the round at once: left open, nobody decides again.
        raise InvalidData(_at(_at(_at(path, "flow"), "simul"), "picks"), "every choosing seat has picked, but the "
                          "round is not resolved: the game could not go on")
    if simul is not None:
        check_picks_offered(game, data, _at(_at(_at(path, "flow"), "simul"), "picks"))
    probe = State(game, copy_data(data), None, [])
    try:
        stuck = [p for p in probe.players_to_decide() if not probe.legal_actions(p)]
    except RulesError:
        return  # an error in the pack's rules: the call that lists the actions reports it, located, as in play
    if stuck:
        raise InvalidData(_at(path, "flow"), f"waits for Player {stuck[0] + 1}, who has no legal action "
                          f"in stage {_short(data['flow']['stage'])}")


def check_picks_offered(game: Game, data: dict[str, Any], path: str) -> None:
    """Each secret pick of the open round is one the seat was offered: a pick it never was (a card not in its
    hand, a bid above its coins) was resolved as if it had been.

    Nothing runs between the picks of a round but `anytime` actions, so where the stage offers none, the saved
    position is the one each pick was made at, and the pick must be one of the actions the engine lists for
    its seat there. Where it offers some, the position may have changed since (coins traded after a bid, which
    the round refuses when it is resolved): the pick must then be one of the stage's own actions."""
    from .errors import RulesError
    from .runtime.data import copy_data
    from .runtime.engine import enumerate_actions

    stage = data["flow"]["stage"]
    picks = data["flow"]["simul"]["picks"]
    for seat in sorted(picks, key=int):  # in seat order, so the first bad pick is always the same one
        pick = picks[seat]
        shown = _short({"action": pick["action"], "args": pick["args"]})
        if game.anytime_by_stage.get(stage):
            own = [action.name for action in game.actions_by_stage.get(stage, ())]
            if pick["action"] not in own:
                raise InvalidData(_at(path, seat), f"Player {int(seat) + 1}'s secret pick {shown} is not an action "
                                  f"of stage {_short(stage)}", f"its actions: {', '.join(own) or 'none'}")
            continue
        position = copy_data(data)
        del position["flow"]["simul"]["picks"][seat]  # as it was when the seat picked
        try:
            offered = enumerate_actions(game, position, int(seat))
        except RulesError:
            return  # an error in the pack's rules: the listing reports it, located, when play goes on
        wanted = _canonical(pick)
        if not any(_canonical(action.payload) == wanted for action in offered):
            ids = [action.id for action in offered[:MAX_SHOWN_OFFERS]]
            more = f" and {len(offered) - len(ids)} more" if len(offered) > len(ids) else ""
            raise InvalidData(_at(path, seat), f"Player {int(seat) + 1}'s secret pick {shown} is not one of the "
                              "actions the seat was offered at this position",
                              f"offered: {', '.join(ids)}{more}" if ids else "the seat was offered nothing")


def _canonical(pick: Any) -> str:
    """A pick as text that tells 1 from true and 1.0, and ignores the order of its keys."""
    return json.dumps({"action": pick.get("action"), "args": pick.get("args")}, sort_keys=True)


def check_data(game: Game, data: Any, path: str, unique_items: bool = False) -> None:
    """Game data fits the pack; with `unique_items`, no item lies in two zones (or twice in one)."""
    model = game.model
    table = check_table(path, data)
    check_keys(path, table, DATA_KEYS, ("script",))
    players = check_int(_at(path, "n"), table["n"], game.min_players, game.max_players)
    check_int(_at(path, "seed"), table["seed"])
    check_int(_at(path, "rng"), table["rng"], 0, (1 << 64) - 1)
    check_vars(_at(path, "v"), model, model.game_vars, table["v"], players)
    seats = check_list(_at(path, "pv"), table["pv"])
    if len(seats) != players:
        raise InvalidData(_at(path, "pv"), f"should hold the vars of {players} players, not {len(seats)}")
    for seat, values in enumerate(seats):
        check_vars(_at(_at(path, "pv"), seat), model, model.player_vars, values, players)
    _check_item_vars(model, table["ev"], players, _at(path, "ev"))
    _check_zones(model, table["z"], players, _at(path, "z"), unique_items)
    _check_blocked(model, table["blocked"], _at(path, "blocked"))
    check_flow(game, table["flow"], players, _at(path, "flow"))
    if table["result"] is not None:
        _check_result(table["result"], players, _at(path, "result"))
    for die, rolls in check_table(_at(path, "script"), table.get("script", {})).items():
        where = _at(_at(path, "script"), die)
        if die not in model.dice:
            raise InvalidData(where, "not a die of the pack")
        for index, face in enumerate(check_list(where, rolls)):
            if type(face) is not int or face not in model.dice[die].faces:  # true and 5.0 equal faces 1 and 5
                raise InvalidData(_at(where, index), f"{_short(face)} is not a face of '{die}'")


def _check_item_vars(model: Model, ev: Any, players: int, path: str) -> None:
    table = check_table(path, ev)
    expected = {item: kind for name, kind in model.kinds.items() if kind.vars
                for item in model.items_of(name, players)}
    check_keys(path, table, expected)
    for item, values in table.items():
        check_vars(_at(path, item), model, expected[item].vars, values, players)


def zone_keys(model: Model, players: int) -> dict[str, str]:
    """Every zone of a game with this many players, by key ("name", "name@seat", "name@item")."""
    keys: dict[str, str] = {}
    for name, zone in model.zones.items():
        if zone.owner == "game":
            keys[name] = name
        elif zone.owner == "player":
            keys.update({f"{name}@{p}": name for p in range(players)})
        else:
            keys.update({f"{name}@{item}": name for item in model.items_of(zone.owner, players)})
    return keys


def _check_zones(model: Model, z: Any, players: int, path: str, unique_items: bool) -> None:
    table = check_table(path, z)
    keys = zone_keys(model, players)
    check_keys(path, table, keys)
    placed: dict[str, str] = {}
    for key, content in table.items():
        zone = model.zones[keys[key]]
        where = _at(path, key)
        # A capacity that is a number in the pack holds in a save as in play, where no move goes past it; one
        # that pack code works out is the game's business.
        room = zone.capacity if type(zone.capacity) is int and not zone.unlimited else None
        if zone.type == "pool":
            counts = check_table(where, content)
            for item, count in counts.items():
                _check_member(model, zone.of, item, players, _at(where, item), seated=False)
                check_int(_at(where, item), count, 0, MAX_NUMBER)  # a count is a number of the language
                if count:  # a pool starts with every item of its kind, those of seats not in the game at 0
                    _check_seat_of_item(model, item, players, _at(where, item))
            if room is not None:
                _check_room(model, zone, key, where, list(counts.items()), room)
            continue
        slots = check_list(where, content)
        if zone.type == "row" and len(slots) != zone.slots:
            raise InvalidData(where, f"row '{key}' has {zone.slots} slots, not {len(slots)}")
        if len(slots) > MAX_ZONE_ITEMS:
            raise InvalidData(where, f"zone '{key}' holds {len(slots)} pieces, more than any zone may "
                                     f"({MAX_ZONE_ITEMS})")
        for index, item in enumerate(slots):
            if item is None and zone.type == "row":
                continue
            _check_member(model, zone.of, item, players, _at(where, index))
            if item in placed and unique_items:
                raise InvalidData(_at(where, index), f"'{item}' is already in zone '{placed[item]}'")
            placed[item] = key
        if room is not None:
            _check_room(model, zone, key, where, [(item, 1) for item in slots if item is not None], room)


def _check_room(model: Model, zone: Any, key: str, where: str, held: list[tuple[Any, int]], room: int) -> None:
    """Refuse a zone that holds more than its capacity: pieces, or their sizes where the zone sizes them."""
    taken = model.room_taken(zone, held)
    if taken is None or taken <= room:
        return
    if zone.size is None:
        raise InvalidData(where, f"zone '{key}' holds {taken} pieces, more than its capacity of {room}")
    raise InvalidData(where, f"zone '{key}' holds pieces of total {zone.size} {taken}, more than its capacity "
                             f"of {room}")


def _check_member(model: Model, kind: str, item: Any, players: int, path: str, seated: bool = True) -> None:
    if not isinstance(item, str) or item not in model.item_kind or (kind and model.item_kind[item] != kind):
        raise InvalidData(path, f"{_short(item)} is not an item" + (f" of kind '{kind}'" if kind else ""))
    if seated:
        _check_seat_of_item(model, item, players, path)


def _check_seat_of_item(model: Model, item: str, players: int, path: str) -> None:
    """An item of a per-player kind is in the game only if its seat is (`pawn_3` of a 2-player game has no
    vars in the state, and code reading it failed later at a line of the pack), unless the pack's own
    starting content holds it, where play can reach it too."""
    owner = model.item_data[item].get("owner")
    if model.kinds[model.item_kind[item]].per_player and isinstance(owner, int) and owner >= players \
            and not _started_with(model, item):
        raise InvalidData(path, f"{_short(item)} belongs to player {owner}, who is not in this {players}-player "
                                "game")


def _started_with(model: Model, item: str) -> bool:
    """Whether a game of the pack starts with `item` somewhere: in a zone's or a var's start, or listed by an
    unlimited pool of its kind (a pool starts with every item of its kind, at 0 if not given)."""
    for zone in model.zones.values():
        if zone.type == "pool" and zone.unlimited and zone.of == model.item_kind[item]:
            return True
        if item in (zone.start or ()) and (not isinstance(zone.start, dict) or zone.start[item]):
            return True
    declared = [model.game_vars, model.player_vars, *(kind.vars for kind in model.kinds.values())]
    return any(var.start == item or isinstance(var.start, list) and item in var.start
               for table in declared for var in table.values())


def _check_blocked(model: Model, blocked: Any, path: str) -> None:
    from .model import edge_key

    edges = {edge_key(a, b) for a, b in model.edges}
    for index, key in enumerate(check_list(path, blocked)):
        if not _named(key, edges):
            raise InvalidData(_at(path, index), f"{_short(key)} is not an edge of the board")


def _named(value: Any, known: Any) -> bool:
    """Whether `value`, read from a file, is a string among `known` (a list read there is no key of anything)."""
    return isinstance(value, str) and value in known


def check_flow(game: Game, flow: Any, players: int, path: str) -> None:
    table = check_table(path, flow)
    check_keys(path, table, FLOW_KEYS)
    if not _named(table["phase"], game.phases):
        raise InvalidData(_at(path, "phase"), f"unknown phase {_short(table['phase'])}")
    if table["stage"] != "" and not _named(table["stage"], game.stages):
        raise InvalidData(_at(path, "stage"), f"unknown stage {_short(table['stage'])}")
    check_seat(_at(path, "active"), table["active"], players)
    order = check_list(_at(path, "order"), table["order"])
    for index, seat in enumerate(order):  # a seat may appear twice: two turns a round (a snake draft)
        check_seat(_at(_at(path, "order"), index), seat, players)
    check_int(_at(path, "pos"), table["pos"], 0, len(order))
    for key in ("turn", "round", "idle"):  # numbers the language reads (`turn_number`), so within its range
        check_int(_at(path, key), table[key], 0, MAX_NUMBER)
    for key in ("end_turn", "entered"):
        check_bool(_at(path, key), table[key])
    if table["simul"] is not None:
        _check_simul(game, table["simul"], players, _at(path, "simul"))
    usage = check_table(_at(path, "usage"), table["usage"])
    check_keys(_at(path, "usage"), usage, ("turn", "visit", "game"))
    for scope, counts in usage.items():
        where = _at(_at(path, "usage"), scope)
        for key, count in check_table(where, counts).items():
            name, _, seat = key.partition("@")
            # The game's counts are each player's (`name@seat`), and so are a turn's and a visit's of an
            # `anytime` action, which any player may take (engine.usage_key).
            seated = scope == "game" or (name in game.actions and game.actions[name].anytime)
            if name not in game.actions or seated != bool(seat) \
                    or (seat and not (plain_digits(seat) and int(seat) < players)):
                raise InvalidData(_at(where, key), "not an action of the pack" +
                                  (" with a seat (name@seat)" if seated else ""))
            check_int(_at(where, key), count, 0)


def _check_simul(game: Game, simul: Any, players: int, path: str) -> None:
    table = check_table(path, simul)
    check_keys(path, table, ("players", "picks"))
    seats = check_list(_at(path, "players"), table["players"])
    for index, seat in enumerate(seats):
        check_seat(_at(_at(path, "players"), index), seat, players)
    if len(set(seats)) != len(seats):
        raise InvalidData(_at(path, "players"), "a seat appears twice")
    if not seats:  # a round of secret picks that nobody makes: the engine never leaves one open
        raise InvalidData(_at(path, "players"), "a round of secret picks with no player choosing")
    for seat, pick in check_table(_at(path, "picks"), table["picks"]).items():
        where = _at(_at(path, "picks"), seat)
        if not plain_digits(seat) or int(seat) not in seats:
            raise InvalidData(where, "a pick by a seat that is not choosing")
        if seat != str(int(seat)):  # the engine looks a seat's pick up by `str(seat)`: "01" is nobody's
            raise InvalidData(where, f"a seat is written {int(seat)}, not {seat!r}")
        pick = check_table(where, pick)
        check_keys(where, pick, ("action", "args"))
        if not _named(pick["action"], game.actions):
            raise InvalidData(_at(where, "action"), f"unknown action {_short(pick['action'])}")
        args = check_table(_at(where, "args"), pick["args"])
        check_plain(_at(where, "args"), args)
        _check_pick_args(game, game.actions[pick["action"]], args, players, _at(where, "args"))


def _check_pick_args(game: Game, action: Any, args: dict[str, Any], players: int, path: str) -> None:
    """A secret pick's arguments: the action's parameters, each an item of its kind or a seat where typed so."""
    names = [param.name for param in action.params]
    if sorted(args) != sorted(names):
        raise InvalidData(path, f"the arguments of '{action.name}' are {', '.join(names) or 'none'}, "
                                f"not {', '.join(_short(k) for k in args) or 'none'}")
    model = game.model
    for param in action.params:
        value = args[param.name]
        if param.type == "player":
            check_seat(_at(path, param.name), value, players)
        elif param.type in model.kinds:
            if value not in model.items_of(param.type, players):
                raise InvalidData(_at(path, param.name), f"{_short(value)} is not an item of kind '{param.type}'")
        else:  # a number, a text, a list...: of its type, as the action's code reads it (`none` for a number
            # was a TypeError at the pick's cost)
            check_value(_at(path, param.name), model, param.type, value, players)


def _check_result(result: Any, players: int, path: str) -> None:
    table = check_table(path, result)
    check_keys(path, table, RESULT_KEYS)
    check_str(_at(path, "reason"), table["reason"])
    for key in ("scores", "ranking", "places", "winners", "tiebreaks"):
        check_plain(_at(path, key), check_list(_at(path, key), table[key]))
    for key in ("ranking", "winners"):
        for index, seat in enumerate(table[key]):
            check_seat(_at(_at(path, key), index), seat, players)


def check_history(history: Any, players: int, path: str) -> None:
    entries = check_list(path, history)
    if len(entries) > MAX_HISTORY:
        raise InvalidData(path, f"more than {MAX_HISTORY} entries")
    for index, entry in enumerate(entries):
        where = _at(path, index)
        table = check_table(where, entry)
        if table.get("setup") is True:
            check_keys(where, table, ("setup", "chance"), ("messages", "scenario"))
            if "scenario" in table and table["scenario"] is not True:
                raise InvalidData(_at(where, "scenario"), "must be true (the game was set up at a scenario's "
                                                          "position) or left out")
        else:
            check_keys(where, table, ("player", "action", "chance"), ("messages",))
            check_seat(_at(where, "player"), table["player"], players)
            check_str(_at(where, "action"), table["action"])
        check_plain(_at(where, "chance"), check_list(_at(where, "chance"), table["chance"]))
        for number, message in enumerate(check_list(_at(where, "messages"), table.get("messages", []))):
            check_str(_at(_at(where, "messages"), number), message)


def check_pending(game: Game, pending: Any, players: int, path: str, data: tuple[str, Any] | None = None) -> None:
    """A decision in the middle of a job: the job must be one the pack offers at its base state, and
    re-running it with the recorded answers must stop at this very decision (with the game's data, if
    given as its path and value, as it stands there)."""
    table = check_table(path, pending)
    check_keys(path, table, ("job", "answers", "base", "player", "prompt", "options", "logged"), ("reseed",))
    check_data(game, table["base"], _at(path, "base"))
    job = check_table(_at(path, "job"), table["job"])
    kind = job.get("kind")
    if not isinstance(kind, str) or kind not in JOB_KINDS:
        raise InvalidData(_at(_at(path, "job"), "kind"), f"unknown job kind {_short(kind)}")
    if kind == "setup":
        check_keys(_at(path, "job"), job, ("kind",))
    else:
        check_keys(_at(path, "job"), job, ("kind", "player", "action", "args"))
        check_seat(_at(_at(path, "job"), "player"), job["player"], players)
        check_plain(_at(_at(path, "job"), "args"), check_table(_at(_at(path, "job"), "args"), job["args"]))
    answers = check_list(_at(path, "answers"), table["answers"])
    for index, answer in enumerate(answers):
        check_str(_at(_at(path, "answers"), index), answer)
    check_seat(_at(path, "player"), table["player"], players)
    check_str(_at(path, "prompt"), table["prompt"])
    options = check_list(_at(path, "options"), table["options"])
    for index, option in enumerate(options):
        where = _at(_at(path, "options"), index)
        if not isinstance(option, list) or len(option) != 3 or not all(isinstance(o, str) for o in option[:2]):
            raise InvalidData(where, "an option is [id, label, value]")
        check_plain(_at(where, 2), option[2])
    check_int(_at(path, "logged"), table["logged"], 0)
    if "reseed" in table:
        reseed = check_table(_at(path, "reseed"), table["reseed"])
        check_keys(_at(path, "reseed"), reseed, ("viewer", "seed", "after"))
        check_seat(_at(_at(path, "reseed"), "viewer"), reseed["viewer"], players)
        check_int(_at(_at(path, "reseed"), "seed"), reseed["seed"])
        check_int(_at(_at(path, "reseed"), "after"), reseed["after"], 0)
    _rerun_job(game, table, path, data)


def _rerun_job(game: Game, pending: dict[str, Any], path: str, data: tuple[str, Any] | None) -> None:
    """Offer the job at its base (or run the setup from it) and answer it again: it must reach the same
    decision, with the same options, every answer taken by the job itself."""
    from .errors import IllegalAction, RulesError
    from .runtime.data import copy_data
    from .runtime.state import State
    from .runtime.values import option_id

    job = pending["job"]
    if job["kind"] == "setup":
        try:
            probe = State.setup_answered(game, copy_data(pending["base"]), pending["answers"], pending.get("reseed"))
        except RulesError as exc:
            raise InvalidData(_at(path, "answers"), f"the recorded answers do not replay: {exc.message}") from None
        _same_decision(probe, pending, path, data)
        return
    probe = State(game, copy_data(pending["base"]), None, [])
    not_legal = InvalidData(_at(path, "job"), f"action {_short(job['action'])} with these args is not legal "
                            "at the saved base state")
    action = game.actions.get(job["action"]) if isinstance(job["action"], str) else None
    if action is None or set(job["args"]) != {param.name for param in action.params}:
        raise not_legal
    try:
        ids = [option_id(job["args"][param.name]) for param in action.params]
    except RulesError:  # a list too long to name an option
        raise not_legal from None
    try:
        # Taken by its id, as `apply` took it: only that action is bound (an error in listing another one
        # stopped no such decision), and an `anytime` one out of turn too.
        probe.apply(f"{action.name}:{','.join(ids)}" if ids else action.name, player=job["player"])
        if probe.pending is not None and _as_json(probe.pending["job"]) != job:
            raise not_legal  # an id names one binding: a job whose args have another is not the pack's
        if "reseed" in pending and probe.pending is not None:
            probe.pending = {**probe.pending, "reseed": pending["reseed"]}
        for index, answer in enumerate(pending["answers"]):
            # Once the job is over, an answer would be taken as the next decision of the game: the engine,
            # going on from this choice, runs the job alone again and drops such answers, and the game
            # stepped back to the end of the job.
            if probe.pending is None or _as_json(probe.pending["job"]) != job:
                raise InvalidData(_at(_at(path, "answers"), index), "the job is over before this answer")
            probe.apply(answer, player=probe.pending["player"])
    except InvalidData:
        raise
    except RulesError as exc:
        if isinstance(exc, IllegalAction) and not probe.history:  # the job's own action is refused there
            raise not_legal from None
        raise InvalidData(_at(path, "answers"), f"the recorded answers do not replay: {exc.message}") from None
    _same_decision(probe, pending, path, data)


def _same_decision(probe: State, pending: dict[str, Any], path: str, data: tuple[str, Any] | None) -> None:
    # Options are compared as a set: their order follows the order of keys in the saved data, which a
    # JSON writer may have sorted.
    reached = probe.pending
    if (reached is None or reached["player"] != pending["player"] or reached["prompt"] != pending["prompt"]
            or _as_json(reached["job"]) != pending["job"]
            or sorted(map(json.dumps, _as_json(reached["options"]))) != sorted(map(json.dumps, pending["options"]))):
        raise InvalidData(path, "the job, re-run with its answers, does not stop at this decision")
    # The chance outcomes the history already holds, and what the players are shown while the choice is open
    # (an answer re-runs the job from its base): both as the job left them.
    if reached["logged"] != pending["logged"]:
        raise InvalidData(_at(path, "logged"), f"the job, re-run with its answers, has drawn {reached['logged']} "
                                               f"chance outcomes, not {pending['logged']}")
    if data is not None and _as_json(probe.data) != data[1]:
        raise InvalidData(data[0], "not as the job, re-run with its answers, leaves the game at this decision")


def _as_json(value: Any) -> Any:
    """`value` as it reads back from JSON (tuples become lists), for comparing live data with saved data."""
    return json.loads(json.dumps(value))
